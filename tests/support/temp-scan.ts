// Extractor tests write small trees into temp folders and scan them; this is the one helper
// for that. Folders are removed after each test.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';
import { scanTree, type Extractor, type ScanResult } from '../../server/engine/index.ts';

/** Files by root-relative path; objects are written as pretty JSON. */
export type TreeFiles = Record<string, string | object>;

export function useTempScan(prefix: string, extractors: readonly Extractor[]) {
  const dirs: string[] = [];
  afterEach(async () => { await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))); });

  async function writeTree(files: TreeFiles): Promise<string> {
    const root = await mkdtemp(path.join(tmpdir(), prefix));
    dirs.push(root);
    for (const [rel, body] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), typeof body === 'string' ? body : JSON.stringify(body, null, 2));
    }
    return root;
  }

  const scan = async (files: TreeFiles): Promise<ScanResult> => scanTree(await writeTree(files), { extractors });
  return { scan, writeTree };
}
