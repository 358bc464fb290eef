// Result area handlers (issue 6).
import { resultCalls } from '../../../contract/api/result.ts';
import type { ServerContext } from '../../context.ts';
import { indexHandlers, type HandlerIndex } from '../register.ts';

export const resultHandlers = (_ctx: ServerContext): HandlerIndex => indexHandlers(resultCalls, {});
