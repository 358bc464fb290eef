// The rpm header as the package database stores it (rpm's doc/manual/format.md, "Header"):
//   int32 il, int32 dl                      (big-endian, like everything in a header)
//   il index entries of 16 bytes: tag, type, offset (into the data store), count
//   dl bytes of data store
// The database copy has no lead and no magic: the blob starts at `il`. Every number read from the
// blob is checked before use — a count beyond the blob, an offset out of range or a size rpm itself
// would refuse makes the header invalid (HeaderError), never a read past the end or a huge
// allocation. Entries are validated when read, so a hostile header costs at most one pass over
// the tags we actually need.

/** rpm refuses more index entries than this (hdrchkTags: `il & 0xffff0000`). */
export const MAX_INDEX_ENTRIES = 0xffff;
/** rpm refuses a data store of 16 MiB or more (hdrchkData: `dl & 0xff000000`). */
export const MAX_DATA_STORE = 0x00ffffff;
/** Files listed per package at most: the largest real packages hold tens of thousands. */
export const MAX_FILES_PER_PACKAGE = 200_000;
/** Provides / requires read per package at most. */
export const MAX_DEPENDENCIES = 20_000;

export const RpmType = {
  Null: 0, Char: 1, Int8: 2, Int16: 3, Int32: 4, Int64: 5, String: 6, Bin: 7, StringArray: 8, I18nString: 9,
} as const;

export const RpmTag = {
  Name: 1000, Version: 1001, Release: 1002, Epoch: 1003, Summary: 1004, Size: 1009, Vendor: 1011, License: 1014,
  Url: 1020, Arch: 1022, OldFilenames: 1027, SourceRpm: 1044, ProvideName: 1047, RequireName: 1049,
  DirIndexes: 1116, BaseNames: 1117, DirNames: 1118, LongSize: 5009,
} as const;

export class HeaderError extends Error {
  override name = 'HeaderError';
}

interface Entry { type: number; offset: number; count: number }

const ALIGN: Record<number, number> = { [RpmType.Int16]: 2, [RpmType.Int32]: 4, [RpmType.Int64]: 8 };
const WIDTH: Record<number, number> = { [RpmType.Char]: 1, [RpmType.Int8]: 1, [RpmType.Int16]: 2, [RpmType.Int32]: 4, [RpmType.Int64]: 8, [RpmType.Bin]: 1 };
const utf8 = new TextDecoder('utf-8');

/** A parsed header: the index validated, tag values read (and checked) on demand. */
export class RpmHeader {
  private readonly entries = new Map<number, Entry>();
  private readonly data: Buffer;

  constructor(blob: Buffer) {
    if (blob.length < 8) throw new HeaderError(`头部只有 ${blob.length} 字节，不足 8 字节`);
    const il = blob.readUInt32BE(0);
    const dl = blob.readUInt32BE(4);
    if (il === 0 || il > MAX_INDEX_ENTRIES) throw new HeaderError(`索引条目数 ${il} 超出范围（1–${MAX_INDEX_ENTRIES}）`);
    if (dl > MAX_DATA_STORE) throw new HeaderError(`数据区长度 ${dl} 超过 16 MiB 上限`);
    const need = 8 + il * 16 + dl;
    if (need > blob.length) throw new HeaderError(`头部声明 ${il} 个索引条目与 ${dl} 字节数据，需要 ${need} 字节，实际只有 ${blob.length} 字节`);
    this.data = blob.subarray(8 + il * 16, need);
    for (let i = 0; i < il; i++) {
      const at = 8 + i * 16;
      const tag = blob.readInt32BE(at);
      const type = blob.readUInt32BE(at + 4);
      const offset = blob.readInt32BE(at + 8);
      const count = blob.readUInt32BE(at + 12);
      if (type > RpmType.I18nString) throw new HeaderError(`标签 ${tag} 的类型 ${type} 无效`);
      if (offset < 0 || offset > dl) throw new HeaderError(`标签 ${tag} 的偏移 ${offset} 超出数据区（${dl} 字节）`);
      if (count === 0 && type !== RpmType.Null) throw new HeaderError(`标签 ${tag} 的元素个数为 0`);
      const align = ALIGN[type];
      if (align && offset % align !== 0) throw new HeaderError(`标签 ${tag} 的偏移 ${offset} 未按 ${align} 字节对齐`);
      const width = WIDTH[type];
      if (width && offset + count * width > dl) throw new HeaderError(`标签 ${tag} 的 ${count} 个元素超出数据区（${dl} 字节）`);
      // The first of a repeated tag wins, as in rpm's own lookup of a sorted index.
      if (!this.entries.has(tag)) this.entries.set(tag, { type, offset, count });
    }
  }

  has(tag: number): boolean {
    return this.entries.has(tag);
  }

  /** A STRING / I18NSTRING (its first translation) / single-element STRING_ARRAY; undefined when absent. */
  string(tag: number): string | undefined {
    const e = this.entries.get(tag);
    if (!e) return undefined;
    if (e.type !== RpmType.String && e.type !== RpmType.I18nString && e.type !== RpmType.StringArray) {
      throw new HeaderError(`标签 ${tag} 应为字符串，实际类型为 ${e.type}`);
    }
    return this.strings(e, tag, 1)[0];
  }

  /** The first `limit` strings of a STRING_ARRAY (a single STRING reads as one). */
  stringArray(tag: number, limit = MAX_FILES_PER_PACKAGE): string[] | undefined {
    const e = this.entries.get(tag);
    if (!e) return undefined;
    if (e.type !== RpmType.StringArray && e.type !== RpmType.String && e.type !== RpmType.I18nString) {
      throw new HeaderError(`标签 ${tag} 应为字符串数组，实际类型为 ${e.type}`);
    }
    return this.strings(e, tag, Math.min(e.count, limit));
  }

  /** Number of elements a tag declares (0 when absent). */
  count(tag: number): number {
    return this.entries.get(tag)?.count ?? 0;
  }

  /** Integer values (INT8/16/32/64; INT64 read as a number, exact up to 2^53). */
  ints(tag: number, limit = MAX_FILES_PER_PACKAGE): number[] | undefined {
    const e = this.entries.get(tag);
    if (!e) return undefined;
    const width = WIDTH[e.type];
    if (e.type < RpmType.Int8 || e.type > RpmType.Int64 || !width) throw new HeaderError(`标签 ${tag} 应为整数，实际类型为 ${e.type}`);
    const n = Math.min(e.count, limit);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      const at = e.offset + i * width;
      out[i] = width === 1 ? this.data[at]! : width === 2 ? this.data.readUInt16BE(at) : width === 4 ? this.data.readUInt32BE(at) : Number(this.data.readBigUInt64BE(at));
    }
    return out;
  }

  int(tag: number): number | undefined {
    return this.ints(tag, 1)?.[0];
  }

  private strings(e: Entry, tag: number, n: number): string[] {
    const out: string[] = [];
    let at = e.offset;
    for (let i = 0; i < n; i++) {
      const end = this.data.indexOf(0, at);
      if (end < 0) throw new HeaderError(`标签 ${tag} 的第 ${i + 1} 个字符串没有结束符，越过数据区末尾`);
      out.push(utf8.decode(this.data.subarray(at, end)));
      at = end + 1;
    }
    return out;
  }
}

/** What the inventory needs of one installed package. */
export interface RpmPackage {
  name: string;
  /** null when the package declares none (rpm's %{EPOCHNUM} prints 0 then). */
  epoch: number | null;
  version: string;
  release: string;
  arch: string;
  sourceRpm: string;
  license: string;
  vendor: string;
  /** Installed size in bytes (LONGSIZE when present, else SIZE). */
  size: number | null;
  /** Files the package owns, absolute paths as rpm lists them (the first MAX_FILES_PER_PACKAGE). */
  files: string[];
  /** The package lists more files than `files` holds. */
  filesTruncated: boolean;
  provides: string[];
  requires: string[];
}

/** Reads the tags of one package; throws HeaderError for a malformed blob. */
export function parsePackageHeader(blob: Buffer): RpmPackage {
  const h = new RpmHeader(blob);
  const name = h.string(RpmTag.Name);
  const version = h.string(RpmTag.Version);
  if (!name) throw new HeaderError('头部缺少包名（NAME）');
  if (version === undefined) throw new HeaderError(`包 ${name} 的头部缺少版本（VERSION）`);
  const epoch = h.int(RpmTag.Epoch);
  return {
    name,
    epoch: epoch ?? null,
    version,
    release: h.string(RpmTag.Release) ?? '',
    arch: h.string(RpmTag.Arch) ?? '',
    sourceRpm: h.string(RpmTag.SourceRpm) ?? '',
    license: h.string(RpmTag.License) ?? '',
    vendor: h.string(RpmTag.Vendor) ?? '',
    size: h.int(RpmTag.LongSize) ?? h.int(RpmTag.Size) ?? null,
    files: fileList(h),
    filesTruncated: Math.max(h.count(RpmTag.BaseNames), h.count(RpmTag.OldFilenames)) > MAX_FILES_PER_PACKAGE,
    provides: h.stringArray(RpmTag.ProvideName, MAX_DEPENDENCIES) ?? [],
    requires: h.stringArray(RpmTag.RequireName, MAX_DEPENDENCIES) ?? [],
  };
}

/** DIRNAMES[DIRINDEXES[i]] + BASENAMES[i], or the pre-4.0 OLDFILENAMES. */
function fileList(h: RpmHeader): string[] {
  const base = h.stringArray(RpmTag.BaseNames);
  if (!base) return h.stringArray(RpmTag.OldFilenames) ?? [];
  const dirs = h.stringArray(RpmTag.DirNames) ?? [];
  const index = h.ints(RpmTag.DirIndexes) ?? [];
  if (index.length !== base.length) throw new HeaderError(`文件列表不一致：${base.length} 个文件名，${index.length} 个目录索引`);
  return base.map((b, i) => {
    const dir = dirs[index[i]!];
    if (dir === undefined) throw new HeaderError(`文件 ${b} 的目录索引 ${index[i]} 超出目录表（${dirs.length} 项）`);
    return dir + b;
  });
}
