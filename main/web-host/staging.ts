// The web host's staging of browser files for upload. A page streams one File per request; the
// bytes go straight to `<stageDir>/<batch>/<relative path>` (never buffered), and the answer is
// the path to hand to `uploads:start`: the file itself, or for a folder (several files sharing a
// batch and a first path segment) the folder. Names are checked segment by segment so nothing
// can be written outside the batch folder.
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { IpcResult } from '../../contract/ipc/desktop-contract.ts';
import { ipcError } from '../ipc/dispatcher.ts';
import { makePrivateDir, privateWriteStream } from '../services/private-files.ts';

const BATCH = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MAX_DEPTH = 64;

/** `a/b/c.txt` -> ['a','b','c.txt'], or null for anything that could escape or is not a plain name. */
export function safeSegments(relative: string | null): string[] | null {
  if (!relative || relative.length > 4096) return null;
  const parts = relative.split('/');
  if (parts.length > MAX_DEPTH) return null;
  for (const part of parts) {
    // eslint-disable-next-line no-control-regex
    if (part === '' || part === '.' || part === '..' || part.length > 255 || /[\\:\u0000-\u001f]/.test(part)) return null;
  }
  return parts;
}

export async function stageFile(stageDir: string, batch: string | null, relative: string | null, body: IncomingMessage): Promise<IpcResult<{ path: string }>> {
  if (!batch || !BATCH.test(batch)) return ipcError('invalid-payload', '暂存批次标识无效');
  const parts = safeSegments(relative);
  if (!parts) return ipcError('invalid-payload', '文件名或相对路径无效');
  const batchDir = path.join(stageDir, batch);
  const target = path.join(batchDir, ...parts);
  await makePrivateDir(path.dirname(target));
  try {
    await pipeline(body, privateWriteStream(target, 'wx'));
  } catch (error) {
    await rm(target, { force: true });
    const exists = (error as NodeJS.ErrnoException).code === 'EEXIST';
    return ipcError('invalid-payload', exists ? '同名文件已暂存' : '文件未完整传到宿主进程，请重试');
  }
  return { ok: true, value: { path: path.join(batchDir, parts[0]!) } };
}
