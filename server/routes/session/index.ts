// Session area (spec doc 1 §7 "Session"): every call of contract/api/session.ts has its handler here.
import { sessionCalls } from '../../../contract/api/session.ts';
import type { ServerContext } from '../../context.ts';
import { indexHandlers, type HandlerIndex } from '../register.ts';
import { accountHandlers } from './account.ts';
import { directoryHandlers } from './directory.ts';
import { signInHandlers } from './sign-in.ts';

export const sessionHandlers = (ctx: ServerContext): HandlerIndex =>
  indexHandlers(sessionCalls, { ...signInHandlers(ctx), ...accountHandlers(ctx), ...directoryHandlers(ctx) });
