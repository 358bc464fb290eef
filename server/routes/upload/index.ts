// Upload area handlers (issue 6).
import { uploadCalls } from '../../../contract/api/upload.ts';
import type { ServerContext } from '../../context.ts';
import { indexHandlers, type HandlerIndex } from '../register.ts';

export const uploadHandlers = (_ctx: ServerContext): HandlerIndex => indexHandlers(uploadCalls, {});
