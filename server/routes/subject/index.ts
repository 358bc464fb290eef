// Subject area handlers (issue 6).
import { subjectCalls } from '../../../contract/api/subject.ts';
import type { ServerContext } from '../../context.ts';
import { indexHandlers, type HandlerIndex } from '../register.ts';

export const subjectHandlers = (_ctx: ServerContext): HandlerIndex => indexHandlers(subjectCalls, {});
