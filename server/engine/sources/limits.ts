// Limits for unpacking untrusted archives (design.md §4: size, file-count and ratio limits).
// One budget covers an archive and every archive nested inside it.

export interface UnpackLimits {
  /** Total bytes written, all entries and nested archives together. */
  maxTotalBytes: number;
  /** Bytes of any single entry. */
  maxFileBytes: number;
  /** Entries of any kind (files, folders, links, skipped entries), nested archives included. */
  maxFiles: number;
  /**
   * Uncompressed / compressed, checked while streaming (against the compressed bytes consumed so
   * far) so a bomb is stopped early rather than after it has filled the disk.
   */
  maxRatio: number;
  /** The ratio is only enforced once this many bytes have come out of one archive. */
  ratioGraceBytes: number;
  /** Levels of archives inside archives unpacked into `<name>!/` folders; 0 turns nesting off. */
  maxDepth: number;
  /** Longest entry path (bytes, `/`-separated) accepted; longer entries are skipped with a note. */
  maxPathBytes: number;
}

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

export const DEFAULT_LIMITS: Readonly<UnpackLimits> = Object.freeze({
  maxTotalBytes: 4 * GiB,
  maxFileBytes: 1 * GiB,
  maxFiles: 200_000,
  maxRatio: 200,
  ratioGraceBytes: 16 * MiB,
  maxDepth: 3,
  maxPathBytes: 1024,
});

/**
 * Archives read in place rather than unpacked (the jars of a war of an ear, read by the Java
 * archive extractor without writing them out): nesting to any depth up to `maxDepth`, within the
 * same byte, entry and ratio budget as unpacking, for an archive and everything nested in it.
 */
export interface InPlaceLimits {
  /** Levels of archives inside archives; deeper ones are reported, not read. */
  maxDepth: number;
  /** Bytes inflated in all, nested archives and their metadata together. */
  maxTotalBytes: number;
  /** Entries listed in all, nested archives included. */
  maxFiles: number;
  /** Uncompressed / compressed of one nested entry, once it is past `ratioGraceBytes`. */
  maxRatio: number;
  ratioGraceBytes: number;
  /** Inflated nested archives held in memory at once (the chain from the outer archive down). */
  maxHeldBytes: number;
  /** Nested archives read in all. */
  maxArchives: number;
}

export const IN_PLACE_LIMITS: Readonly<InPlaceLimits> = Object.freeze({
  maxDepth: 16,
  maxTotalBytes: DEFAULT_LIMITS.maxTotalBytes,
  maxFiles: DEFAULT_LIMITS.maxFiles,
  maxRatio: DEFAULT_LIMITS.maxRatio,
  ratioGraceBytes: DEFAULT_LIMITS.ratioGraceBytes,
  maxHeldBytes: 256 * MiB,
  maxArchives: 10_000,
});

export function resolveLimits(limits?: Partial<UnpackLimits>): UnpackLimits {
  const merged = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(limits ?? {}) as [keyof UnpackLimits, number | undefined][]) {
    if (value === undefined) continue;
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) throw new RangeError(`解压限制 ${key} 必须是非负数`);
    merged[key] = value;
  }
  return merged;
}

/** `4 GiB`, `512 MiB`, `900 KiB`, `12 B`. */
export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const text = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(1).replace(/\.0$/, '');
  return `${text} ${units[unit]}`;
}
