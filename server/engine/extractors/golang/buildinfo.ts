// The build information the Go linker writes into every executable it links (what `go version -m`
// prints), read the way the go command's debug/buildinfo does: find the data segment of the ELF,
// PE or Mach-O file (the `.go.buildinfo` section, `__go_buildinfo`, else the first writable
// data segment or section), look there for the 16-byte-aligned `\xff Go buildinf:` header, then
// read the Go version and the module information either inline after the header (Go >= 1.18,
// flag bit 2) or through two pointers to string headers (Go < 1.18), mapped from virtual
// addresses to file offsets by the program headers, segments or sections.
import type { RandomAccess } from '../common/random-access.ts';

const MAGIC = Buffer.from('\xff Go buildinf:', 'latin1');
const HEADER_SIZE = 32;
const ALIGN = 16;
/** How far into the data segment the header is looked for (the go command reads 64 KiB). */
const SEARCH_SIZE = 64 * 1024;
/** How far into a writable segment it is looked for when the file has no section naming it. */
const MAX_SEGMENT_SEARCH = 64 * 1024 * 1024;
/** Upper bound on the version and module strings (a module list of thousands of dependencies). */
const MAX_STRING = 16 * 1024 * 1024;

/** One loaded range of the executable: where its bytes are in the file and in memory. */
interface Region { vaddr: bigint; offset: number; filesz: number }

interface Executable {
  format: 'elf' | 'pe' | 'macho';
  regions: Region[];
  /**
   * Virtual address and size of where the header is looked for; `whole` when that is a writable
   * segment rather than the build info's own section (a binary whose section headers were removed:
   * the blob may lie past the segment's first 64 KiB, after a cgo binary's relocated data).
   */
  dataStart?: { vaddr: bigint; size: number; whole?: boolean };
}

export interface GoModule {
  path: string;
  version: string;
  sum: string;
  replace?: GoModule;
}

export interface GoBuildInfo {
  format: Executable['format'];
  /** As the linker wrote it: `go1.21.3`, `go1.22rc1`, `devel go1.23-abc…`. */
  goVersion: string;
  /** The main package's import path (`path` line). */
  path: string;
  main?: GoModule;
  deps: GoModule[];
  /** `build` lines: -ldflags, vcs.revision, GOOS, ... */
  settings: Map<string, string>;
  /** File offset of the `\xff Go buildinf:` header: where the evidence is. */
  offset: number;
}

const u16 = (b: Buffer, o: number, le: boolean) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
const u32 = (b: Buffer, o: number, le: boolean) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
const u64 = (b: Buffer, o: number, le: boolean) => (le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o));
const safe = (n: bigint): number => (n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n));

/** Whether the first bytes are those of an executable format that can carry Go build info. */
export function isExecutableMagic(head: Buffer): boolean {
  if (head.length < 4) return false;
  const m = head.readUInt32BE(0);
  return (
    m === 0x7f454c46 // ELF
    || head.readUInt16BE(0) === 0x4d5a // MZ (PE)
    || m === 0xfeedface || m === 0xfeedfacf || m === 0xcefaedfe || m === 0xcffaedfe // Mach-O
    || m === 0xcafebabe // Mach-O universal (or a Java class: rejected later)
  );
}

async function exact(src: RandomAccess, position: number, length: number): Promise<Buffer | undefined> {
  if (position < 0 || length < 0 || position + length > src.size) return undefined;
  const b = await src.read(position, length);
  return b.length === length ? b : undefined;
}

async function parseElf(src: RandomAccess, head: Buffer): Promise<Executable | undefined> {
  const is64 = head[4] === 2;
  const le = head[5] !== 2;
  const h = await exact(src, 0, is64 ? 64 : 52);
  if (!h) return undefined;
  const phoff = is64 ? safe(u64(h, 0x20, le)) : u32(h, 0x1c, le);
  const shoff = is64 ? safe(u64(h, 0x28, le)) : u32(h, 0x20, le);
  const phentsize = u16(h, is64 ? 0x36 : 0x2a, le);
  const phnum = u16(h, is64 ? 0x38 : 0x2c, le);
  const shentsize = u16(h, is64 ? 0x3a : 0x2e, le);
  const shnum = u16(h, is64 ? 0x3c : 0x30, le);
  const shstrndx = u16(h, is64 ? 0x3e : 0x32, le);

  const regions: Region[] = [];
  let firstWritable: { vaddr: bigint; size: number; whole?: boolean } | undefined;
  const ph = phnum && phentsize >= (is64 ? 56 : 32) ? await exact(src, phoff, phnum * phentsize) : undefined;
  for (let i = 0; ph && i < phnum; i++) {
    const o = i * phentsize;
    if (u32(ph, o, le) !== 1) continue; // PT_LOAD
    const flags = is64 ? u32(ph, o + 4, le) : u32(ph, o + 24, le);
    const offset = is64 ? safe(u64(ph, o + 8, le)) : u32(ph, o + 4, le);
    const vaddr = is64 ? u64(ph, o + 16, le) : BigInt(u32(ph, o + 8, le));
    const filesz = is64 ? safe(u64(ph, o + 32, le)) : u32(ph, o + 16, le);
    const memsz = is64 ? safe(u64(ph, o + 40, le)) : u32(ph, o + 20, le);
    regions.push({ vaddr, offset, filesz });
    if (!firstWritable && (flags & 3) === 2) firstWritable = { vaddr, size: Math.min(memsz, filesz), whole: true }; // PF_W without PF_X
  }

  let section: { vaddr: bigint; size: number } | undefined;
  const entry = is64 ? 64 : 40;
  if (shnum && shentsize >= entry && shstrndx < shnum && shnum <= 4096) {
    const sh = await exact(src, shoff, shnum * shentsize);
    if (sh) {
      const so = shstrndx * shentsize;
      const strOffset = is64 ? safe(u64(sh, so + 24, le)) : u32(sh, so + 16, le);
      const strSize = Math.min(is64 ? safe(u64(sh, so + 32, le)) : u32(sh, so + 20, le), 1 << 20);
      const names = await exact(src, strOffset, strSize);
      for (let i = 0; names && i < shnum; i++) {
        const o = i * shentsize;
        const nameAt = u32(sh, o, le);
        const end = names.indexOf(0, nameAt);
        if (names.toString('latin1', nameAt, end < 0 ? undefined : end) !== '.go.buildinfo') continue;
        section = {
          vaddr: is64 ? u64(sh, o + 16, le) : BigInt(u32(sh, o + 12, le)),
          size: is64 ? safe(u64(sh, o + 32, le)) : u32(sh, o + 20, le),
        };
        break;
      }
    }
  }
  return { format: 'elf', regions, dataStart: section ?? firstWritable };
}

async function parsePe(src: RandomAccess): Promise<Executable | undefined> {
  const dos = await exact(src, 0, 64);
  if (!dos) return undefined;
  const peAt = dos.readUInt32LE(0x3c);
  const coff = await exact(src, peAt, 24);
  if (!coff || coff.readUInt32BE(0) !== 0x50450000) return undefined; // "PE\0\0"
  const sections = coff.readUInt16LE(6);
  const optSize = coff.readUInt16LE(20);
  const opt = await exact(src, peAt + 24, optSize);
  if (!opt || optSize < 32) return undefined;
  const magic = opt.readUInt16LE(0);
  const imageBase = magic === 0x20b ? opt.readBigUInt64LE(24) : BigInt(opt.readUInt32LE(28));
  const table = await exact(src, peAt + 24 + optSize, sections * 40);
  if (!table) return undefined;
  const regions: Region[] = [];
  let dataStart: { vaddr: bigint; size: number } | undefined;
  for (let i = 0; i < sections; i++) {
    const o = i * 40;
    const virtualSize = table.readUInt32LE(o + 8);
    const va = table.readUInt32LE(o + 12);
    const rawSize = table.readUInt32LE(o + 16);
    const rawAt = table.readUInt32LE(o + 20);
    const chars = table.readUInt32LE(o + 36);
    regions.push({ vaddr: imageBase + BigInt(va), offset: rawAt, filesz: rawSize });
    // Initialised, readable, writable data (alignment bits aside): where the linker puts it.
    if (!dataStart && va !== 0 && rawSize !== 0 && ((chars & ~0x600000) >>> 0) === 0xc0000040) {
      dataStart = { vaddr: imageBase + BigInt(va), size: virtualSize };
    }
  }
  return { format: 'pe', regions, dataStart };
}

async function parseMachO(src: RandomAccess, base: number): Promise<Executable | undefined> {
  const head = await exact(src, base, 32);
  if (!head) return undefined;
  const magicLe = head.readUInt32LE(0);
  const le = magicLe === 0xfeedface || magicLe === 0xfeedfacf;
  const magic = le ? magicLe : head.readUInt32BE(0);
  if (magic !== 0xfeedface && magic !== 0xfeedfacf) return undefined;
  const is64 = magic === 0xfeedfacf;
  const ncmds = u32(head, 16, le);
  const sizeofcmds = u32(head, 20, le);
  const cmds = await exact(src, base + (is64 ? 32 : 28), Math.min(sizeofcmds, 1 << 22));
  if (!cmds) return undefined;
  const regions: Region[] = [];
  let section: { vaddr: bigint; size: number } | undefined;
  let firstWritable: { vaddr: bigint; size: number; whole?: boolean } | undefined;
  let o = 0;
  for (let i = 0; i < ncmds && o + 8 <= cmds.length; i++) {
    const cmd = u32(cmds, o, le);
    const size = u32(cmds, o + 4, le);
    if (size < 8) break;
    if ((cmd === 0x19 && is64) || (cmd === 0x1 && !is64)) { // LC_SEGMENT_64 / LC_SEGMENT
      const vmaddr = is64 ? u64(cmds, o + 24, le) : BigInt(u32(cmds, o + 24, le));
      const vmsize = is64 ? safe(u64(cmds, o + 32, le)) : u32(cmds, o + 28, le);
      const fileoff = is64 ? safe(u64(cmds, o + 40, le)) : u32(cmds, o + 32, le);
      const filesize = is64 ? safe(u64(cmds, o + 48, le)) : u32(cmds, o + 36, le);
      const maxprot = u32(cmds, o + (is64 ? 56 : 40), le);
      const initprot = u32(cmds, o + (is64 ? 60 : 44), le);
      const nsects = u32(cmds, o + (is64 ? 64 : 48), le);
      regions.push({ vaddr: vmaddr, offset: base + fileoff, filesz: filesize });
      if (!firstWritable && vmaddr !== 0n && filesize !== 0 && initprot === 3 && maxprot === 3) firstWritable = { vaddr: vmaddr, size: vmsize };
      const sectSize = is64 ? 80 : 68;
      for (let s = 0, so = o + (is64 ? 72 : 56); s < nsects && so + sectSize <= o + size; s++, so += sectSize) {
        const name = cmds.toString('latin1', so, so + 16).replace(/\0.*$/s, '');
        if (name !== '__go_buildinfo') continue;
        section = { vaddr: is64 ? u64(cmds, so + 32, le) : BigInt(u32(cmds, so + 32, le)), size: is64 ? safe(u64(cmds, so + 40, le)) : u32(cmds, so + 36, le) };
      }
    }
    o += size;
  }
  return { format: 'macho', regions, dataStart: section ?? firstWritable };
}

/** Universal binary: the first architecture that is a Mach-O file (a Java class file is not). */
async function parseFat(src: RandomAccess): Promise<Executable | undefined> {
  const head = await exact(src, 0, 8);
  if (!head) return undefined;
  const count = head.readUInt32BE(4);
  if (count === 0 || count > 32) return undefined;
  const table = await exact(src, 8, count * 20);
  for (let i = 0; table && i < count; i++) {
    const offset = table.readUInt32BE(i * 20 + 8);
    const parsed = await parseMachO(src, offset);
    if (parsed) return parsed;
  }
  return undefined;
}

async function parseExecutable(src: RandomAccess): Promise<Executable | undefined> {
  const head = await exact(src, 0, 16);
  if (!head || !isExecutableMagic(head)) return undefined;
  const m = head.readUInt32BE(0);
  if (m === 0x7f454c46) return parseElf(src, head);
  if (head.readUInt16BE(0) === 0x4d5a) return parsePe(src);
  if (m === 0xcafebabe) return parseFat(src);
  return parseMachO(src, 0);
}

function offsetOf(exe: Executable, vaddr: bigint, length: number): number | undefined {
  for (const r of exe.regions) {
    if (vaddr < r.vaddr) continue;
    const delta = vaddr - r.vaddr;
    if (delta + BigInt(length) <= BigInt(r.filesz)) return r.offset + Number(delta);
  }
  return undefined;
}

async function readVirtual(src: RandomAccess, exe: Executable, vaddr: bigint, length: number): Promise<Buffer | undefined> {
  const at = offsetOf(exe, vaddr, length);
  return at === undefined ? undefined : exact(src, at, length);
}

/** An unsigned LEB128 varint: [value, bytes used], undefined when truncated or too long. */
function uvarint(b: Buffer, at: number): [number, number] | undefined {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 8 && at + i < b.length; i++) {
    const byte = b[at + i]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, i + 1];
    scale *= 128;
  }
  return undefined;
}

/** The module text is framed by 16-byte sentinels that `runtime/debug` strips the same way. */
function unframe(mod: string): string {
  return mod.length >= 33 && mod[mod.length - 17] === '\n' ? mod.slice(16, -16) : '';
}

export function parseModInfo(text: string): Omit<GoBuildInfo, 'format' | 'goVersion' | 'offset'> {
  const info: Omit<GoBuildInfo, 'format' | 'goVersion' | 'offset'> = { path: '', deps: [], settings: new Map() };
  let last: GoModule | undefined;
  for (const line of text.split('\n')) {
    const [kind, a = '', b = '', c = ''] = line.split('\t');
    if (kind === 'path') info.path = a;
    else if (kind === 'mod') { info.main = { path: a, version: b, sum: c }; last = info.main; }
    else if (kind === 'dep') { last = { path: a, version: b, sum: c }; info.deps.push(last); }
    else if (kind === '=>' && last) { last.replace = { path: a, version: b, sum: c }; last = undefined; }
    else if (kind === 'build') {
      const eq = a.indexOf('=');
      if (eq > 0) info.settings.set(a.slice(0, eq), a.slice(eq + 1).replace(/^"(.*)"$/s, '$1'));
    }
  }
  return info;
}

/**
 * The Go build information of an executable, or undefined when the file is not an executable
 * written by the Go linker (or carries none, as binaries linked before Go 1.13 do).
 */
export async function readGoBuildInfo(src: RandomAccess): Promise<GoBuildInfo | undefined> {
  try {
    return await readBuildInfo(src);
  } catch (error) {
    // Tables pointing past their own bounds: a damaged or foreign file, not a Go executable.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

async function readBuildInfo(src: RandomAccess): Promise<GoBuildInfo | undefined> {
  const exe = await parseExecutable(src);
  if (!exe?.dataStart) return undefined;
  const { vaddr: start } = exe.dataStart;
  const startAt = offsetOf(exe, start, 1);
  if (startAt === undefined) return undefined;
  // The go command reads the first 64 KiB; a segment without its section is read on, a window at a time.
  const searchEnd = exe.dataStart.whole ? Math.min(exe.dataStart.size, MAX_SEGMENT_SEARCH) : SEARCH_SIZE;
  let found = -1;
  let header: Buffer | undefined;
  for (let base = 0; base < Math.max(searchEnd, HEADER_SIZE) && found < 0; base += SEARCH_SIZE) {
    const window = await src.read(startAt + base, Math.min(SEARCH_SIZE, Math.max(searchEnd - base, 0)) + HEADER_SIZE);
    for (let i = window.indexOf(MAGIC); i >= 0 && i < SEARCH_SIZE; i = window.indexOf(MAGIC, i + 1)) {
      if ((base + i) % ALIGN === 0 && window.length - i >= HEADER_SIZE) { found = base + i; header = window.subarray(i, i + HEADER_SIZE); break; }
    }
    if (window.length < SEARCH_SIZE) break;
  }
  if (found < 0 || !header) return undefined;
  const ptrSize = header[14]!;
  const flags = header[15]!;

  let goVersion: string;
  let mod: string;
  if (flags & 2) {
    // Inline: two varint-prefixed strings right after the header.
    const at = startAt + found + HEADER_SIZE;
    const readString = async (pos: number): Promise<[string, number] | undefined> => {
      const prefix = await src.read(pos, 10);
      const v = uvarint(prefix, 0);
      if (!v || v[0] > MAX_STRING) return undefined;
      const body = await exact(src, pos + v[1], v[0]);
      return body ? [body.toString('utf8'), pos + v[1] + v[0]] : undefined;
    };
    const version = await readString(at);
    if (!version) return undefined;
    const modText = await readString(version[1]);
    goVersion = version[0];
    mod = modText?.[0] ?? '';
  } else {
    if (ptrSize !== 4 && ptrSize !== 8) return undefined;
    const le = (flags & 1) === 0;
    const ptr = (b: Buffer, o: number) => (ptrSize === 8 ? u64(b, o, le) : BigInt(u32(b, o, le)));
    const readString = async (addr: bigint): Promise<string> => {
      const hdr = await readVirtual(src, exe, addr, 2 * ptrSize);
      if (!hdr) return '';
      const length = ptr(hdr, ptrSize);
      if (length > BigInt(MAX_STRING)) return '';
      const data = await readVirtual(src, exe, ptr(hdr, 0), Number(length));
      return data ? data.toString('utf8') : '';
    };
    goVersion = await readString(ptr(header, 16));
    mod = await readString(ptr(header, 16 + ptrSize));
  }
  if (!goVersion.startsWith('go') && !goVersion.startsWith('devel')) return undefined;
  return { format: exe.format, goVersion, ...parseModInfo(unframe(mod)), offset: startAt + found };
}
