// Checking an uploaded archive before an analysis is launched from it: the same readers and limits
// as the analysis (unpack.ts), run to the end into a temporary folder that is removed afterwards,
// so a fake, truncated, damaged (CRC), oversized or empty archive is refused when the user asks
// for the analysis rather than minutes later in the queue. Streaming throughout: zlib inflates on
// the thread pool, nothing is held in memory beyond a chunk.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { makePrivateTempDir } from '../../files/private.ts';
import { isFeatureFile, readFeatureFile } from '../feature/read.ts';
import { UnpackError } from './archive/errors.ts';
import { detectFormat, unpackArchive, type ArchiveFormat, type UnpackLimits } from './unpack.ts';

export interface VerifyOptions {
  /** The archive's original name (uploads are stored under ids): messages and a bare .gz's file. */
  name: string;
  /** Where the temporary folder goes (the platform's data folder, not a RAM-backed /tmp). */
  tempDir: string;
  limits?: Partial<UnpackLimits>;
  signal?: AbortSignal;
}

export interface VerifiedArchive {
  format: ArchiveFormat;
  /** Regular files in it, nested archives included. */
  files: number;
  bytes: number;
  /** A Cairn feature file (cairn feature): only the source type 特征文件 analyses it as one. */
  feature?: { kind: 'source' | 'image' };
}

/**
 * Reads `file` through as the analysis would. Answers null for a file that is not an archive at
 * all (the caller decides whether its source type takes a plain file); throws UnpackError, in
 * Chinese, for an archive that cannot be analysed: unsupported, damaged, over a limit, or empty.
 */
export async function verifyArchive(file: string, options: VerifyOptions): Promise<VerifiedArchive | null> {
  const detected = await detectFormat(file);
  if (detected.kind === 'none') return null;
  const parent = await makePrivateTempDir(path.join(options.tempDir, 'verify-'));
  try {
    // A feature file is checked whole (manifest, hashes, paths), as its analysis will read it.
    if (await isFeatureFile(file)) {
      const feature = await readFeatureFile(file, path.join(parent, 'root'), { name: options.name, limits: options.limits, signal: options.signal });
      return { format: 'zip', files: feature.files.length, bytes: feature.bytes, feature: { kind: feature.manifest.kind } };
    }
    const unpacked = await unpackArchive(file, path.join(parent, 'root'), { name: options.name, limits: options.limits, signal: options.signal });
    if (unpacked.files === 0) throw new UnpackError('empty', `压缩包 ${options.name} 中没有任何文件`);
    return { format: unpacked.format, files: unpacked.files, bytes: unpacked.bytes };
  } finally {
    await rm(parent, { recursive: true, force: true, maxRetries: 3 });
  }
}
