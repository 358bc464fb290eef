// Subject area handlers (issue 6): subjects, groups view, members, versions, setup tabs,
// repository sources and the repository facts of a subject's projects.
import { subjectCalls } from '../../../contract/api/subject.ts';
import type { ServerContext } from '../../context.ts';
import { indexHandlers, type HandlerIndex } from '../register.ts';
import { memberHandlers } from './members.ts';
import { setupHandlers } from './setup.ts';
import { sourceHandlers } from './sources.ts';
import { subjectCoreHandlers } from './subjects.ts';

export const subjectHandlers = (ctx: ServerContext): HandlerIndex => indexHandlers(subjectCalls, {
  ...subjectCoreHandlers(ctx),
  ...memberHandlers(ctx),
  ...setupHandlers(ctx),
  ...sourceHandlers(ctx),
});
