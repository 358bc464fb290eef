// The bounded executable reader: section tables of real ELF, PE and Mach-O files (Debian's libz,
// the Go extractor's test executables), universal binaries, and files whose tables lie.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isNativeMagic, peOffsetOf, readExecutable } from '../../../../../server/engine/extractors/common/executable.ts';
import { bufferAccess } from '../../../../../server/engine/extractors/common/random-access.ts';
import type { RandomAccess } from '../../../../../server/engine/extractors/common/random-access.ts';

const GO = path.resolve(import.meta.dirname, '../../../../fixtures/gobinary');
const go = (name: string) => readFileSync(path.join(GO, name));
const LIBZ = '/usr/lib/x86_64-linux-gnu/libz.so.1';

/** A source that records the largest read it was asked for. */
function recording(buffer: Buffer): RandomAccess & { largest: number } {
  const inner = bufferAccess(buffer);
  const src = { size: buffer.length, largest: 0, read: (p: number, l: number) => { src.largest = Math.max(src.largest, l); return inner.read(p, l); } };
  return src;
}

function fat(...slices: Array<{ offset: number; body: Buffer; size?: number }>): Buffer {
  const header = Buffer.alloc(8 + 20 * slices.length);
  header.writeUInt32BE(0xcafebabe, 0);
  header.writeUInt32BE(slices.length, 4);
  slices.forEach((s, i) => {
    header.writeUInt32BE(0x0100000c, 8 + i * 20);
    header.writeUInt32BE(s.offset, 16 + i * 20);
    header.writeUInt32BE(s.size ?? s.body.length, 20 + i * 20);
  });
  const end = Math.max(...slices.map((s) => s.offset + s.body.length));
  const file = Buffer.alloc(Math.max(end, header.length));
  header.copy(file, 0);
  for (const s of slices) s.body.copy(file, s.offset);
  return file;
}

describe('section tables', () => {
  it.skipIf(!existsSync(LIBZ))('ELF: .rodata as read-only data, .text as code, .bss without bytes', async () => {
    const exe = (await readExecutable(bufferAccess(readFileSync(LIBZ))))!;
    expect(exe.problems).toEqual([]);
    const [image] = exe.images;
    expect(image!.format).toBe('elf');
    const byName = new Map(image!.sections.map((s) => [s.name, s]));
    expect(byName.get('.rodata')!.kind).toBe('rodata');
    expect(byName.get('.text')!.kind).toBe('code');
    expect(byName.get('.data')!.kind).toBe('data');
    expect(byName.get('.bss')).toMatchObject({ kind: 'bss', size: 0 });
    expect(byName.get('.dynstr')!.kind).toBe('other');
    // The libraries it links dynamically, from DT_NEEDED.
    expect(image!.needed).toEqual(['libc.so.6']);
  });

  it('PE: .rdata read-only, .data writable, the data directories', async () => {
    const exe = (await readExecutable(bufferAccess(go('hello-windows-amd64.exe'))))!;
    const [image] = exe.images;
    expect(image!.format).toBe('pe');
    expect(image!.sections.map((s) => [s.name, s.kind])).toEqual(expect.arrayContaining([['.text', 'code'], ['.rdata', 'rodata'], ['.data', 'data']]));
    expect(image!.directories).toHaveLength(16);
    expect(image!.needed).toEqual(['kernel32.dll']);
    const rdata = image!.sections.find((s) => s.name === '.rdata')!;
    expect(peOffsetOf(image!, Number(rdata.vaddr) + 4, 4)).toBe(rdata.offset + 4);
    expect(peOffsetOf(image!, 0x7fff_0000, 4)).toBeUndefined();
  });

  it('Mach-O: sections named segment,section', async () => {
    const exe = (await readExecutable(bufferAccess(go('hello-darwin-arm64'))))!;
    const [image] = exe.images;
    expect(image!.format).toBe('macho');
    expect(image!.sections.map((s) => [s.name, s.kind])).toEqual(expect.arrayContaining([['__TEXT,__text', 'code'], ['__TEXT,__rodata', 'rodata'], ['__DATA,__data', 'data'], ['__DATA,__bss', 'bss']]));
    expect(image!.needed).toEqual(['/usr/lib/libSystem.B.dylib']);
  });

  it('a universal binary: every architecture, its sections at their place in the file; a slice past the end is a problem', async () => {
    const thin = go('hello-darwin-arm64');
    const file = fat({ offset: 4096, body: thin }, { offset: 4096, body: thin, size: thin.length * 4 });
    const exe = (await readExecutable(bufferAccess(file)))!;
    expect(exe.images).toHaveLength(1);
    expect(exe.images[0]!.base).toBe(4096);
    const text = exe.images[0]!.sections.find((s) => s.name === '__TEXT,__text')!;
    const single = (await readExecutable(bufferAccess(thin)))!.images[0]!.sections.find((s) => s.name === '__TEXT,__text')!;
    expect(text.offset).toBe(single.offset + 4096);
    expect(exe.problems).toEqual(['通用 Mach-O 文件的第 2 个架构超出文件末尾，已跳过']);
  });

  it('not an executable: text, a Java class file (same magic as a universal binary), an MZ file without a PE header', async () => {
    expect(await readExecutable(bufferAccess(Buffer.from('hello world, this is text')))).toBeUndefined();
    const klass = Buffer.alloc(64);
    klass.writeUInt32BE(0xcafebabe, 0);
    klass.writeUInt32BE(0x00000041, 4); // minor 0, major 65
    expect(isNativeMagic(klass)).toBe(false);
    const dos = Buffer.alloc(256);
    dos.write('MZ', 0, 'latin1');
    dos.writeUInt32LE(0x80, 0x3c);
    expect(await readExecutable(bufferAccess(dos))).toBeUndefined();
  });
});

describe('tables that lie', () => {
  it.skipIf(!existsSync(LIBZ))('an ELF section count of 65535 and a section table past the end: problems, small reads only', async () => {
    const elf = Buffer.from(readFileSync(LIBZ));
    elf.writeUInt16LE(0xffff, 0x3c);
    const src = recording(elf);
    const exe = (await readExecutable(src))!;
    expect(exe.problems).toEqual(['ELF 节表不合理（65535 个节，每项 64 字节），已按整个文件读取']);
    expect(exe.images[0]!.sections).toEqual([]);
    expect(src.largest).toBeLessThanOrEqual(64);

    const moved = Buffer.from(readFileSync(LIBZ));
    moved.writeBigUInt64LE(0x7fff_ffff_0000n, 0x28);
    const exe2 = (await readExecutable(bufferAccess(moved)))!;
    expect(exe2.problems[0]).toMatch(/^ELF 节表（位置 0x7fffffff0000，\d+ 项）超出文件末尾/);
  });

  it('a PE file claiming 60000 sections, a Mach-O file claiming 1 GiB of load commands: problems, no allocation', async () => {
    const pe = Buffer.from(go('hello-windows-amd64.exe'));
    const peAt = pe.readUInt32LE(0x3c);
    pe.writeUInt16LE(60000, peAt + 6);
    const src = recording(pe);
    expect((await readExecutable(src))!.problems).toEqual(['PE 节表不合理（60000 个节），已按整个文件读取']);
    expect(src.largest).toBeLessThan(4096);

    const macho = Buffer.from(go('hello-darwin-arm64'));
    macho.writeUInt32LE(1 << 30, 20);
    const src2 = recording(macho);
    expect((await readExecutable(src2))!.problems).toEqual([`Mach-O 加载命令不合理（${1 << 30} 字节），已按整个文件读取`]);
    expect(src2.largest).toBeLessThan(4096);
  });

  it('truncated headers: a problem each', async () => {
    const elf = Buffer.alloc(40);
    elf.write('\x7fELF\x02\x01\x01', 0, 'latin1');
    expect((await readExecutable(bufferAccess(elf)))!.problems).toEqual(['ELF 文件头不完整（文件被截断）']);
    const macho = go('hello-darwin-arm64').subarray(0, 200);
    expect((await readExecutable(bufferAccess(macho)))!.problems).toEqual(['Mach-O 加载命令超出文件末尾：文件被截断或已损坏，已按整个文件读取']);
  });
});
