// Lists of users for pickers, and the health probe a supervisor polls.
import type { sessionCalls } from '../../../contract/api/session.ts';
import { ok } from '../../../contract/envelope.ts';
import { listUsers } from '../../db/repositories/users.ts';
import type { ServerContext } from '../../context.ts';
import type { AreaHandlers } from '../register.ts';

type Handlers = AreaHandlers<typeof sessionCalls>;

export function directoryHandlers({ db, databaseKind, version }: ServerContext): Pick<Handlers, 'allUsers' | 'health'> {
  return {
    async allUsers() {
      return ok(await listUsers(db));
    },
    async health() {
      return ok({ status: 'ok' as const, version, database: databaseKind });
    },
  };
}
