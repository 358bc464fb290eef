// Extractor tests write small trees into temp folders and scan them; this is the one helper
// for that. Folders are removed after each test.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import { scanTree, type Extractor, type ScanResult } from '../../server/engine/index.ts';

/** Files by root-relative path; strings and bytes are written as they are, other objects as pretty JSON. */
export type TreeFiles = Record<string, string | Buffer | object>;

export function useTempScan(prefix: string, extractors: readonly Extractor[]) {
  const dirs: string[] = [];
  afterEach(async () => { await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true }))); });

  async function writeTree(files: TreeFiles): Promise<string> {
    const root = await mkdtemp(path.join(tmpdir(), prefix));
    dirs.push(root);
    for (const [rel, body] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body, null, 2));
    }
    return root;
  }

  const scan = async (files: TreeFiles): Promise<ScanResult> => scanTree(await writeTree(files), { extractors });

  /**
   * Scans a malformed `file` (`body`) beside a good one at `ok/<file>`: the malformed one is one
   * problem whose message contains `message`, and the good one is still read (its target alone).
   */
  async function scanMalformed(file: string, body: string, good: string, message: string): Promise<ScanResult> {
    const result = await scan({ [file]: body, [`ok/${file}`]: good });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]!.message).toContain(message);
    expect(result.targets.map((t) => t.file)).toEqual([`ok/${file}`]);
    return result;
  }

  return { scan, writeTree, scanMalformed };
}
