// Word: the body as HTML through mammoth (images inline as data URIs). The renderer sanitises it.
import mammoth from 'mammoth';
import type { ReviewDocument } from '../../../contract/ipc/desktop-contract.ts';
import { REVIEW_MSG, unreadable } from './errors.ts';

export async function readDocx(file: string, fileName: string): Promise<ReviewDocument> {
  try {
    const result = await mammoth.convertToHtml({ path: file });
    return { kind: 'html', fileName, html: result.value };
  } catch {
    throw unreadable(REVIEW_MSG.badDocument);
  }
}
