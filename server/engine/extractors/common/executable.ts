// A bounded reader of native executables and libraries: the headers and section tables of ELF,
// PE (COFF) and Mach-O files, universal (fat) Mach-O files included, read a few table bytes at a
// time through RandomAccess whatever the file's size. Nothing here reads section contents: the
// native extractors read the sections they want themselves, in bounded chunks.
// Every count, size and offset read from the file is checked against the file's size and against
// limits no real linker reaches, so a damaged or hostile file costs a few small reads and leaves a
// Chinese problem, never a huge allocation.
import type { RandomAccess } from './random-access.ts';

export type ExecutableFormat = 'elf' | 'pe' | 'macho';

/** What a section holds, as far as a reader of embedded strings cares. */
export type SectionKind = 'code' | 'rodata' | 'data' | 'bss' | 'other';

export interface Section {
  /** As the file names it: `.rodata`, `.rdata`, `__TEXT,__cstring`, `.dep-v0`. */
  name: string;
  kind: SectionKind;
  /** Where its bytes are in the file, and how many (0 for bss and sections past the file's end). */
  offset: number;
  size: number;
  /** Its address in memory (PE: relative to the image base). */
  vaddr: bigint;
  /** The table claimed more bytes than the file holds: `size` is what is there. */
  truncated?: boolean;
}

export interface ExecutableImage {
  format: ExecutableFormat;
  /** Offset of this image in the file: 0, or the slice of a universal Mach-O file. */
  base: number;
  sections: Section[];
  /** PE only: the data directories by index (2 resources, 14 CLR header: a .NET assembly). */
  directories?: Array<{ rva: number; size: number }>;
  /** The shared libraries it links dynamically (ELF DT_NEEDED, Mach-O LC_LOAD_DYLIB), as written: `libcrypto.so.3`, `/usr/lib/libz.1.dylib`. */
  needed?: string[];
}

export interface ExecutableFile {
  images: ExecutableImage[];
  /** Damaged tables, in Chinese (one line each): what could be read was. */
  problems: string[];
}

/** More sections than this is a damaged table (ELF allows 65535; real files have < 100). */
const MAX_ELF_SECTIONS = 4096;
/** The PE loader's own limit. */
const MAX_PE_SECTIONS = 96;
const MAX_MACHO_COMMANDS_SIZE = 4 << 20;
const MAX_FAT_ARCHES = 32;
const MAX_NAME_TABLE = 1 << 20;
const MAX_DYNAMIC = 64 * 1024;
const MAX_IMPORTS = 1024;

const ELF = 0x7f454c46;
const FAT = 0xcafebabe;

const u16 = (b: Buffer, o: number, le: boolean) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
const u32 = (b: Buffer, o: number, le: boolean) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
const u64 = (b: Buffer, o: number, le: boolean) => (le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o));
const safe = (n: bigint): number => (n > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(n));
const hex = (n: number) => `0x${n.toString(16)}`;

/** Whether the first bytes (at least 8) are those of an ELF, PE or Mach-O file. */
export function isNativeMagic(head: Buffer): boolean {
  if (head.length < 8) return false;
  const m = head.readUInt32BE(0);
  if (m === ELF) return true;
  if (head.readUInt16BE(0) === 0x4d5a) return true; // MZ
  if (m === 0xfeedface || m === 0xfeedfacf || m === 0xcefaedfe || m === 0xcffaedfe) return true;
  // A universal binary, not a Java class file (same magic; its next word is a class version >= 45).
  return m === FAT && head.readUInt32BE(4) > 0 && head.readUInt32BE(4) <= MAX_FAT_ARCHES;
}

async function exact(src: RandomAccess, position: number, length: number): Promise<Buffer | undefined> {
  if (!Number.isSafeInteger(position) || position < 0 || length < 0 || position + length > src.size) return undefined;
  const b = await src.read(position, length);
  return b.length === length ? b : undefined;
}

/** A section's bytes kept within the file: a section claiming more than the file holds is a problem, cut at the end. */
function bounded(name: string, offset: number, size: number, fileSize: number, problems: string[]): { offset: number; size: number; truncated?: boolean } {
  if (size === 0) return { offset, size };
  if (offset >= fileSize) {
    problems.push(`节 ${name} 的位置 ${hex(offset)} 超出文件末尾（文件 ${fileSize} 字节），已跳过`);
    return { offset, size: 0, truncated: true };
  }
  if (offset + size > fileSize) {
    problems.push(`节 ${name} 的长度 ${size} 字节超出文件末尾，只读取文件内的 ${fileSize - offset} 字节`);
    return { offset, size: fileSize - offset, truncated: true };
  }
  return { offset, size };
}

async function readElf(src: RandomAccess, problems: string[]): Promise<ExecutableImage | undefined> {
  const ident = await exact(src, 0, 16);
  if (!ident) { problems.push('ELF 文件头不完整（文件被截断）'); return undefined; }
  const is64 = ident[4] === 2;
  const le = ident[5] !== 2;
  const h = await exact(src, 0, is64 ? 64 : 52);
  if (!h) { problems.push('ELF 文件头不完整（文件被截断）'); return undefined; }
  const shoff = is64 ? safe(u64(h, 0x28, le)) : u32(h, 0x20, le);
  const shentsize = u16(h, is64 ? 0x3a : 0x2e, le);
  const shnum = u16(h, is64 ? 0x3c : 0x30, le);
  const shstrndx = u16(h, is64 ? 0x3e : 0x32, le);
  const image: ExecutableImage = { format: 'elf', base: 0, sections: [] };
  if (shnum === 0 || shoff === 0) return image; // Sections stripped: the caller reads the file as a whole.
  const entry = is64 ? 64 : 40;
  if (shentsize < entry || shnum > MAX_ELF_SECTIONS) {
    problems.push(`ELF 节表不合理（${shnum} 个节，每项 ${shentsize} 字节），已按整个文件读取`);
    return image;
  }
  const sh = await exact(src, shoff, shnum * shentsize);
  if (!sh) {
    problems.push(`ELF 节表（位置 ${hex(shoff)}，${shnum} 项）超出文件末尾：文件被截断或已损坏，已按整个文件读取`);
    return image;
  }
  let names: Buffer | undefined;
  if (shstrndx < shnum) {
    const so = shstrndx * shentsize;
    const at = is64 ? safe(u64(sh, so + 24, le)) : u32(sh, so + 16, le);
    const size = is64 ? safe(u64(sh, so + 32, le)) : u32(sh, so + 20, le);
    names = await exact(src, at, Math.min(size, MAX_NAME_TABLE, Math.max(0, src.size - at)));
  }
  let dynamic: { offset: number; size: number; link: number } | undefined;
  for (let i = 1; i < shnum; i++) {
    const o = i * shentsize;
    const nameAt = u32(sh, o, le);
    const end = names && nameAt < names.length ? names.indexOf(0, nameAt) : -1;
    const name = names && nameAt < names.length ? names.toString('latin1', nameAt, end < 0 ? undefined : end) : `#${i}`;
    const type = u32(sh, o + 4, le);
    const flags = is64 ? safe(u64(sh, o + 8, le)) : u32(sh, o + 8, le);
    const vaddr = is64 ? u64(sh, o + 16, le) : BigInt(u32(sh, o + 12, le));
    const offset = is64 ? safe(u64(sh, o + 24, le)) : u32(sh, o + 16, le);
    const size = is64 ? safe(u64(sh, o + 32, le)) : u32(sh, o + 20, le);
    if (type === 6 && !dynamic) dynamic = { offset, size, link: u32(sh, o + (is64 ? 40 : 24), le) }; // SHT_DYNAMIC
    if (type === 8) { image.sections.push({ name, kind: 'bss', offset, size: 0, vaddr }); continue; } // SHT_NOBITS
    const alloc = (flags & 2) !== 0;
    const kind: SectionKind = !alloc || type !== 1 ? 'other' : flags & 4 ? 'code' : flags & 1 ? 'data' : 'rodata';
    image.sections.push({ name, kind, vaddr, ...bounded(name, offset, size, src.size, problems) });
  }
  if (dynamic && dynamic.link < shnum) image.needed = await readNeeded(src, sh, shentsize, dynamic, is64, le);
  return image;
}

/** DT_NEEDED entries of the dynamic section, names from the string table it links to (both bounded). */
async function readNeeded(src: RandomAccess, sh: Buffer, shentsize: number, dynamic: { offset: number; size: number; link: number }, is64: boolean, le: boolean): Promise<string[]> {
  const entry = is64 ? 16 : 8;
  const table = await exact(src, dynamic.offset, Math.min(dynamic.size, MAX_DYNAMIC) - (Math.min(dynamic.size, MAX_DYNAMIC) % entry));
  const so = dynamic.link * shentsize;
  const strAt = is64 ? safe(u64(sh, so + 24, le)) : u32(sh, so + 16, le);
  const strSize = is64 ? safe(u64(sh, so + 32, le)) : u32(sh, so + 20, le);
  const strings = await exact(src, strAt, Math.min(strSize, MAX_NAME_TABLE, Math.max(0, src.size - strAt)));
  if (!table || !strings) return [];
  const needed: string[] = [];
  for (let o = 0; o + entry <= table.length; o += entry) {
    const tag = is64 ? u64(table, o, le) : BigInt(u32(table, o, le));
    if (tag === 0n) break; // DT_NULL
    if (tag !== 1n) continue; // DT_NEEDED
    const at = is64 ? safe(u64(table, o + 8, le)) : u32(table, o + 4, le);
    if (at >= strings.length) continue;
    const end = strings.indexOf(0, at);
    needed.push(strings.toString('latin1', at, end < 0 ? undefined : end));
  }
  return needed;
}

async function readPe(src: RandomAccess, problems: string[]): Promise<ExecutableImage | undefined> {
  const dos = await exact(src, 0, 64);
  if (!dos) { problems.push('PE 文件的 DOS 头不完整（文件被截断）'); return undefined; }
  const peAt = dos.readUInt32LE(0x3c);
  const coff = await exact(src, peAt, 24);
  if (!coff || coff.readUInt32BE(0) !== 0x50450000) return undefined; // An MZ file without a PE header (DOS program).
  const count = coff.readUInt16LE(6);
  const optSize = coff.readUInt16LE(20);
  const opt = await exact(src, peAt + 24, optSize);
  if (!opt || optSize < 96) { problems.push('PE 可选头不完整（文件被截断）'); return undefined; }
  const pe32plus = opt.readUInt16LE(0) === 0x20b;
  const dirAt = pe32plus ? 112 : 96;
  const dirCount = optSize >= dirAt + 4 ? Math.min(opt.readUInt32LE(dirAt - 4), 16, Math.floor((optSize - dirAt) / 8)) : 0;
  const directories: Array<{ rva: number; size: number }> = [];
  for (let i = 0; i < dirCount; i++) directories.push({ rva: opt.readUInt32LE(dirAt + i * 8), size: opt.readUInt32LE(dirAt + i * 8 + 4) });
  const image: ExecutableImage = { format: 'pe', base: 0, sections: [], directories };
  if (count > MAX_PE_SECTIONS) { problems.push(`PE 节表不合理（${count} 个节），已按整个文件读取`); return image; }
  const table = await exact(src, peAt + 24 + optSize, count * 40);
  if (!table) { problems.push('PE 节表超出文件末尾：文件被截断或已损坏，已按整个文件读取'); return image; }
  for (let i = 0; i < count; i++) {
    const o = i * 40;
    const name = table.toString('latin1', o, o + 8).replace(/\0.*$/s, '');
    const va = table.readUInt32LE(o + 12);
    const rawSize = table.readUInt32LE(o + 16);
    const rawAt = table.readUInt32LE(o + 20);
    const chars = table.readUInt32LE(o + 36);
    const kind: SectionKind = chars & 0x20000000 ? 'code' : chars & 0x80 && !(chars & 0x40) ? 'bss' : chars & 0x40 ? (chars & 0x80000000 ? 'data' : 'rodata') : 'other';
    image.sections.push({ name, kind, vaddr: BigInt(va), ...bounded(name, rawAt, kind === 'bss' ? 0 : rawSize, src.size, problems) });
  }
  image.needed = await readPeImports(src, image);
  return image;
}

/** The DLL names of the import directory (IMAGE_IMPORT_DESCRIPTOR, 20 bytes each, up to an all-zero one). */
async function readPeImports(src: RandomAccess, image: ExecutableImage): Promise<string[]> {
  const dir = image.directories?.[1];
  if (!dir?.rva) return [];
  const at = peOffsetOf(image, dir.rva, 20);
  if (at === undefined) return [];
  const table = await src.read(at, Math.min(MAX_IMPORTS * 20, Math.max(20, dir.size)));
  const needed: string[] = [];
  for (let o = 0; o + 20 <= table.length; o += 20) {
    const nameRva = table.readUInt32LE(o + 12);
    if (nameRva === 0) break;
    const nameAt = peOffsetOf(image, nameRva, 1);
    if (nameAt === undefined) continue;
    const name = await src.read(nameAt, 256);
    const end = name.indexOf(0);
    needed.push(name.toString('latin1', 0, end < 0 ? undefined : end));
  }
  return needed;
}

async function readMachO(src: RandomAccess, base: number, problems: string[]): Promise<ExecutableImage | undefined> {
  const head = await exact(src, base, 32);
  if (!head) { problems.push('Mach-O 文件头不完整（文件被截断）'); return undefined; }
  const magicLe = head.readUInt32LE(0);
  const le = magicLe === 0xfeedface || magicLe === 0xfeedfacf;
  const magic = le ? magicLe : head.readUInt32BE(0);
  if (magic !== 0xfeedface && magic !== 0xfeedfacf) return undefined;
  const is64 = magic === 0xfeedfacf;
  const ncmds = u32(head, 16, le);
  const sizeofcmds = u32(head, 20, le);
  const image: ExecutableImage = { format: 'macho', base, sections: [] };
  if (sizeofcmds > MAX_MACHO_COMMANDS_SIZE) { problems.push(`Mach-O 加载命令不合理（${sizeofcmds} 字节），已按整个文件读取`); return image; }
  const cmds = await exact(src, base + (is64 ? 32 : 28), sizeofcmds);
  if (!cmds) { problems.push('Mach-O 加载命令超出文件末尾：文件被截断或已损坏，已按整个文件读取'); return image; }
  const needed: string[] = [];
  image.needed = needed;
  let o = 0;
  for (let i = 0; i < ncmds && o + 8 <= cmds.length; i++) {
    const cmd = u32(cmds, o, le);
    const size = u32(cmds, o + 4, le);
    if (size < 8 || o + size > cmds.length) { problems.push(`Mach-O 第 ${i + 1} 条加载命令长度不合理（${size} 字节）`); break; }
    // LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB, LC_LAZY_LOAD_DYLIB, LC_LOAD_UPWARD_DYLIB: a dylib_command whose name is at its offset.
    if ((cmd === 0xc || cmd === 0x80000018 || cmd === 0x8000001f || cmd === 0x20 || cmd === 0x80000023) && size >= 24) {
      const at = u32(cmds, o + 8, le);
      if (at < size) needed.push(cmds.toString('latin1', o + at, o + size).replace(/\0.*$/s, ''));
    }
    if ((cmd === 0x19 && is64) || (cmd === 0x1 && !is64)) { // LC_SEGMENT_64 / LC_SEGMENT
      const segment = cmds.toString('latin1', o + 8, o + 24).replace(/\0.*$/s, '');
      const nsects = u32(cmds, o + (is64 ? 64 : 48), le);
      const sectSize = is64 ? 80 : 68;
      for (let s = 0, so = o + (is64 ? 72 : 56); s < nsects && so + sectSize <= o + size; s++, so += sectSize) {
        const sect = cmds.toString('latin1', so, so + 16).replace(/\0.*$/s, '');
        const name = `${cmds.toString('latin1', so + 16, so + 32).replace(/\0.*$/s, '') || segment},${sect}`;
        const vaddr = is64 ? u64(cmds, so + 32, le) : BigInt(u32(cmds, so + 32, le));
        const sz = is64 ? safe(u64(cmds, so + 40, le)) : u32(cmds, so + 36, le);
        const offset = u32(cmds, so + (is64 ? 48 : 40), le);
        const flags = u32(cmds, so + (is64 ? 64 : 56), le);
        const type = flags & 0xff;
        if (type === 0x1 || type === 0xc || type === 0x12 || offset === 0) { image.sections.push({ name, kind: 'bss', offset: 0, size: 0, vaddr }); continue; }
        const kind: SectionKind = flags & 0x80000400 ? 'code' : /^__(TEXT|DATA_CONST)$/.test(segment) ? 'rodata' : segment.startsWith('__DATA') ? 'data' : 'other';
        image.sections.push({ name, kind, vaddr, ...bounded(name, base + offset, sz, src.size, problems) });
      }
    }
    o += size;
  }
  return image;
}

async function readFat(src: RandomAccess, problems: string[]): Promise<ExecutableImage[]> {
  const head = await exact(src, 0, 8);
  const count = head ? head.readUInt32BE(4) : 0;
  const table = await exact(src, 8, count * 20);
  if (!table) { problems.push('通用 Mach-O 文件的架构表不完整（文件被截断）'); return []; }
  const images: ExecutableImage[] = [];
  for (let i = 0; i < count; i++) {
    const offset = table.readUInt32BE(i * 20 + 8);
    const size = table.readUInt32BE(i * 20 + 12);
    if (offset >= src.size || offset + size > src.size) { problems.push(`通用 Mach-O 文件的第 ${i + 1} 个架构超出文件末尾，已跳过`); continue; }
    const image = await readMachO(src, offset, problems);
    if (image) images.push(image);
  }
  return images;
}

/**
 * The images of an ELF, PE or Mach-O file (several for a universal binary) with their section
 * tables; undefined when the file is none of them. Damaged tables leave problems and an image
 * without sections, which the caller reads as a whole.
 */
export async function readExecutable(src: RandomAccess): Promise<ExecutableFile | undefined> {
  const head = await src.read(0, 16);
  if (!isNativeMagic(head)) return undefined;
  const problems: string[] = [];
  const m = head.readUInt32BE(0);
  let images: ExecutableImage[];
  if (m === ELF) images = [await readElf(src, problems)].filter((i) => i !== undefined);
  else if (head.readUInt16BE(0) === 0x4d5a) {
    const pe = await readPe(src, problems);
    if (!pe && problems.length === 0) return undefined;
    images = pe ? [pe] : [];
  } else if (m === FAT) images = await readFat(src, problems);
  else images = [await readMachO(src, 0, problems)].filter((i) => i !== undefined);
  return { images, problems };
}

/** File offset of a PE relative virtual address, through the section that holds it. */
export function peOffsetOf(image: ExecutableImage, rva: number, length: number): number | undefined {
  for (const s of image.sections) {
    const start = Number(s.vaddr);
    if (s.size > 0 && rva >= start && rva + length <= start + s.size) return s.offset + (rva - start);
  }
  return undefined;
}
