// Which files the native extractors read, and how: shared libraries by name, executables by the
// Go extractor's rules (extensionless files, anything under bin/, *.exe), each confirmed by its
// first bytes so a claimed text file (a linker script named libc.so) costs one small read; their
// read-only data read in bounded chunks, never whole.
import type { InputFile } from '../../model.ts';
import { readExecutable } from '../common/executable.ts';
import type { ExecutableFile, Section } from '../common/executable.ts';
import { fileAccess } from '../common/random-access.ts';
import type { RandomAccess } from '../common/random-access.ts';
import { isExecutableCandidate } from '../golang/binary.ts';

/** `libssl.so`, `libssl.so.3`, `libz.so.1.2.13`, `zlib1.dll`, `libcurl.4.dylib`. */
const LIBRARY = /\.(so(\.\d+)*|dll|dylib)$/i;

export const isSharedLibrary = (path: string): boolean => LIBRARY.test(path.slice(path.lastIndexOf('/') + 1));

export function isNativeCandidate(path: string): boolean {
  return isSharedLibrary(path) || isExecutableCandidate(path);
}

export const baseName = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Smaller than any real library or program (an empty C program linked by gcc is ~15 KB). */
const MIN_SIZE = 1024;

export interface OpenedNative {
  src: RandomAccess;
  exe: ExecutableFile;
}

/** The file's executable tables, or undefined when it is too small or not ELF, PE or Mach-O. */
export async function openNative(file: InputFile): Promise<OpenedNative | undefined> {
  if (file.size > 0 && file.size < MIN_SIZE) return undefined;
  const src = await fileAccess(file);
  if (src.size < MIN_SIZE) return undefined;
  const exe = await readExecutable(src);
  return exe ? { src, exe } : undefined;
}

/** The byte ranges that hold constant data: read-only and initialised data sections; the whole file when no section says. */
export function dataRanges(opened: OpenedNative): Array<{ offset: number; size: number }> {
  const sections: Section[] = opened.exe.images.flatMap((i) => i.sections);
  const wanted = sections.filter((s) => s.size > 0 && (s.kind === 'rodata' || s.kind === 'data') && !/^\.(eh_frame|gcc_except_table|init_array|fini_array|data\.rel\.ro|got|dynamic|rela?\.|gnu\.hash|hash|dynsym|gnu\.version|note)/.test(s.name) && !/__(eh_frame|unwind_info|got|la_symbol_ptr|mod_init_func)$/.test(s.name));
  if (wanted.length === 0 || opened.exe.images.some((i) => i.sections.length === 0)) return [{ offset: 0, size: opened.src.size }];
  // Merge adjacent or overlapping ranges so a chunk boundary never falls between two of them needlessly.
  // One byte before each section too: a string at a section's start is delimited by what precedes it.
  const ranges = wanted.map((s) => ({ offset: Math.max(0, s.offset - 1), size: s.size + (s.offset > 0 ? 1 : 0) })).sort((a, b) => a.offset - b.offset);
  const merged: Array<{ offset: number; size: number }> = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r.offset <= last.offset + last.size + 64) last.size = Math.max(last.size, r.offset + r.size - last.offset);
    else merged.push({ ...r });
  }
  return merged;
}

/** Reading unit: large enough that a needle search is memchr-bound, small enough to stay cheap in memory. */
export const CHUNK = 1 << 20;

/**
 * Calls `visit` with consecutive chunks of each range, each overlapping the previous one by
 * `overlap` bytes so a match across a chunk boundary is seen whole; `start` is the chunk's file
 * offset. A match starting in the overlap is seen twice: callers keep one per offset.
 */
export async function forEachChunk(src: RandomAccess, ranges: Array<{ offset: number; size: number }>, overlap: number, visit: (chunk: Buffer, start: number) => void, signal?: AbortSignal): Promise<void> {
  for (const range of ranges) {
    const end = Math.min(src.size, range.offset + range.size);
    for (let at = range.offset; at < end; at += CHUNK) {
      signal?.throwIfAborted();
      const chunk = await src.read(at, Math.min(CHUNK + overlap, end - at));
      if (chunk.length === 0) break;
      visit(chunk, at);
    }
  }
}
