// The native extractors' tests read real files in place (Debian's own libraries) through the
// same random access a scan gives them, and compare with what dpkg says was installed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import type { InputFile } from '../../../../../server/engine/model.ts';

/** An input read in place from an absolute path (or held in memory), named `rel` as a scan would name it. */
export function inputFile(source: string | Buffer, rel: string): InputFile {
  if (Buffer.isBuffer(source)) {
    return {
      path: rel, size: source.length, read: async () => source, text: async () => source.toString('utf8'),
      readAt: async (position, length) => source.subarray(position, position + length),
    };
  }
  return {
    path: rel, size: statSync(source).size, read: () => readFile(source), text: () => readFile(source, 'utf8'),
    readAt: async (position, length) => {
      const fh = await open(source);
      try {
        const b = Buffer.alloc(length);
        const { bytesRead } = await fh.read(b, 0, length, position);
        return b.subarray(0, bytesRead);
      } finally { await fh.close(); }
    },
  };
}

/** The upstream part of an installed Debian package's version (`1:1.2.13.dfsg-1` -> `1.2.13`); undefined when not installed. */
export function debianUpstream(pkg: string): string | undefined {
  try {
    const v = execFileSync('dpkg-query', ['-W', '-f', '${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return v.replace(/^\d+:/, '').replace(/-[^-]*$/, '').replace(/[.+~](dfsg|ds|repack)\d*$/, '') || undefined;
  } catch { return undefined; }
}

export const present = (file: string): boolean => existsSync(file);
export const bytes = (file: string): Buffer => readFileSync(file);
