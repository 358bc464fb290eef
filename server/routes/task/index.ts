// Task area handlers (issue 6).
import { taskCalls } from '../../../contract/api/task.ts';
import type { ServerContext } from '../../context.ts';
import { indexHandlers, type HandlerIndex } from '../register.ts';

export const taskHandlers = (_ctx: ServerContext): HandlerIndex => indexHandlers(taskCalls, {});
