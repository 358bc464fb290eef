// A lockfile's text, decoded from its bytes in one piece. InputFile.text() reads with
// readFile(…, 'utf8'), which decodes a large file chunk by chunk into a concatenation that the
// first character access then flattens: two copies of a 20 MB lockfile in the old generation,
// which only a full collection frees. The same UTF-8 decoding, one copy.
import type { InputFile } from '../../model.ts';

export async function lockText(file: InputFile): Promise<string> {
  return (await file.read()).toString('utf8');
}
