// Rust executables built with cargo-auditable: the crates and their graph from the `.dep-v0`
// section of a real executable (tests/fixtures/cargo-auditable, built by its build.sh), and
// damaged sections in minimal ELF files.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { cargoAuditableExtractor } from '../../../../../server/engine/extractors/native/cargo-auditable.ts';
import { extractors } from '../../../../../server/engine/extractors/native/index.ts';
import { CONFIDENCE } from '../../../../../server/engine/model.ts';
import type { Target } from '../../../../../server/engine/model.ts';
import { useTempScan } from '../../../../support/temp-scan.ts';
import { inputFile } from './native-file.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../fixtures/cargo-auditable');
const demo = readFileSync(path.join(FIXTURES, 'rust-audit-demo'));
const ctx = { signal: new AbortController().signal } as never;
const { scan } = useTempScan('cairn-cargo-auditable-', extractors);

const extract = (bytes: Buffer, rel = 'usr/bin/audit-demo'): Promise<Target[]> => cargoAuditableExtractor.extract(inputFile(bytes, rel), ctx);

/** A minimal ELF64 file: a null section, `.dep-v0` holding `payload` (its size as `declared`), and the name table. */
function elfWithDepV0(payload: Buffer, declared = payload.length): Buffer {
  const names = Buffer.from('\0.dep-v0\0.shstrtab\0', 'latin1');
  const dataAt = 0x1000;
  const namesAt = dataAt + payload.length;
  const shoff = namesAt + names.length + 8 - ((namesAt + names.length) % 8);
  const file = Buffer.alloc(shoff + 3 * 64);
  file.write('\x7fELF\x02\x01\x01', 0, 'latin1');
  file.writeUInt16LE(2, 0x10); // ET_EXEC
  file.writeUInt16LE(0x3e, 0x12);
  file.writeBigUInt64LE(BigInt(shoff), 0x28);
  file.writeUInt16LE(64, 0x34);
  file.writeUInt16LE(64, 0x3a);
  file.writeUInt16LE(3, 0x3c);
  file.writeUInt16LE(2, 0x3e);
  payload.copy(file, dataAt);
  names.copy(file, namesAt);
  const section = (i: number, name: number, type: number, flags: number, offset: number, size: number) => {
    const o = shoff + i * 64;
    file.writeUInt32LE(name, o); file.writeUInt32LE(type, o + 4); file.writeBigUInt64LE(BigInt(flags), o + 8);
    file.writeBigUInt64LE(BigInt(offset), o + 24); file.writeBigUInt64LE(BigInt(size), o + 32);
  };
  section(1, 1, 1, 2, dataAt, declared);
  section(2, 9, 3, 0, namesAt, names.length);
  return file;
}

const payload = (json: unknown) => deflateSync(Buffer.from(JSON.stringify(json)));

describe('cargo-auditable data of a real executable', () => {
  it('the program, its crates with their scope and graph, through a workspace crate', async () => {
    const [target] = await extract(demo);
    expect(target!.problems).toBeUndefined();
    expect(target!.type).toBe('cargo-auditable');
    expect(target!.project).toEqual({ purl: 'pkg:cargo/audit-demo@0.3.1', name: 'audit-demo', version: '0.3.1' });
    expect(target!.roots).toEqual(['pkg:cargo/audit-demo@0.3.1']);
    const by = new Map(target!.components.map((c) => [c.name, c]));
    // demo-core is a local crate: no component; its crates are reached through it.
    expect([...by.keys()].sort()).toEqual(['audit-demo', 'cc', 'colored', 'memchr', 'once_cell', 'openssl-sys', 'pkg-config', 'proc-macro2', 'quote', 'serde', 'serde_derive', 'smallvec', 'unicode-ident', 'vcpkg']);
    expect(by.get('audit-demo')!.dependsOn).toEqual(['pkg:cargo/colored@2.1.0', 'pkg:cargo/memchr@2.7.1', 'pkg:cargo/openssl-sys@0.9.101', 'pkg:cargo/serde@1.0.197', 'pkg:cargo/smallvec@1.13.2']);
    expect(by.get('openssl-sys')!.dependsOn).toEqual(['pkg:cargo/cc@1.0.90', 'pkg:cargo/pkg-config@0.3.30', 'pkg:cargo/vcpkg@0.2.15']);
    expect([...by.values()].filter((c) => c.scope === 'development').map((c) => c.name).sort()).toEqual(['cc', 'pkg-config', 'proc-macro2', 'quote', 'serde_derive', 'unicode-ident', 'vcpkg']);
    expect([...by.values()].filter((c) => c.direct).map((c) => c.name).sort()).toEqual(['audit-demo', 'colored', 'memchr', 'openssl-sys', 'serde', 'smallvec']);
    const serde = by.get('serde')!;
    expect(serde.confidence).toBe(CONFIDENCE.METADATA);
    expect(serde.locations).toEqual([{ file: 'usr/bin/audit-demo' }]);
    const [evidence] = serde.evidence!;
    expect(evidence).toMatchObject({ file: 'usr/bin/audit-demo', rule: 'cargo-auditable 依赖信息', text: 'serde 1.0.197 (crates.io)' });
    // The offset is the section's: the compressed payload starts there.
    expect(demo[evidence!.offset!]).toBe(0x78);
    expect(by.get('colored')!.evidence![0]!.text).toBe('colored 2.1.0 (git)');
  });

  it('is scanned where an image keeps it, beside the version-string reader that finds nothing in it', async () => {
    const result = await scan({ 'usr/local/bin/audit-demo': demo, 'usr/local/bin/plain': Buffer.alloc(4096) });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.type])).toEqual([['usr/local/bin/audit-demo', 'cargo-auditable']]);
  });
});

describe('damaged cargo-auditable data', () => {
  it('a minimal ELF with a good section: read; root absent: every runtime crate a root', async () => {
    const [target] = await extract(elfWithDepV0(payload({ packages: [{ name: 'libc', version: '0.2.153', source: 'crates.io' }, { name: 'cc', version: '1.0.90', source: 'crates.io', kind: 'build' }] })));
    expect(target!.project).toBeNull();
    expect(target!.roots).toEqual(['pkg:cargo/libc@0.2.153']);
    expect(target!.components.map((c) => [c.purl, c.scope])).toEqual([['pkg:cargo/libc@0.2.153', 'runtime'], ['pkg:cargo/cc@1.0.90', 'development']]);
  });

  it('dependencies out of range, two roots, a cycle, a package without a version: problems, the rest read', async () => {
    const [target] = await extract(elfWithDepV0(payload({ packages: [
      { name: 'app', version: '1.0.0', source: 'local', root: true, dependencies: [1, 99] },
      { name: 'a', version: '1.0.0', source: 'crates.io', dependencies: [2] },
      { name: 'b', version: '1.0.0', source: 'crates.io', dependencies: [1] },
      { name: 'other', version: '2.0.0', source: 'local', root: true },
      { name: 'nameless' },
    ] })));
    expect(target!.problems).toEqual([
      'cargo-auditable 依赖信息中有 1 个包缺少名称或版本，已跳过',
      'cargo-auditable 依赖信息中有 1 条依赖指向不存在的包，已忽略',
      'cargo-auditable 依赖信息标记了 2 个根包，按第一个处理',
    ]);
    const by = new Map(target!.components.map((c) => [c.name, c.dependsOn]));
    expect(by.get('app')).toEqual(['pkg:cargo/a@1.0.0']);
    expect(by.get('a')).toEqual(['pkg:cargo/b@1.0.0']);
    expect(by.get('b')).toEqual(['pkg:cargo/a@1.0.0']);
    expect(by.has('other')).toBe(false);
  });

  it('not zlib, not JSON, no packages, a zip bomb, a section past the end: one problem each, nothing found', async () => {
    const cases: Array<[Buffer, string]> = [
      [elfWithDepV0(Buffer.from('not compressed at all')), 'cargo-auditable 依赖信息（.dep-v0 节）不是有效的 zlib 数据'],
      [elfWithDepV0(deflateSync(Buffer.from('{"packages": ['))), 'cargo-auditable 依赖信息不是有效的 JSON'],
      [elfWithDepV0(payload({ crates: [] })), 'cargo-auditable 依赖信息缺少 packages 列表'],
      [elfWithDepV0(deflateSync(Buffer.alloc(9 << 20, 0x20))), 'cargo-auditable 依赖信息解压后超过 8 MiB 上限，未读取'],
    ];
    for (const [bytes, message] of cases) {
      const [target] = await extract(bytes);
      expect(target!.components).toEqual([]);
      expect(target!.problems).toEqual([expect.stringContaining(message)]);
    }
    const past = elfWithDepV0(payload({ packages: [] }), 1 << 30);
    const [target] = await extract(past);
    expect(target!.problems).toEqual(['cargo-auditable 依赖信息（.dep-v0 节）超出文件末尾：文件被截断或已损坏']);
  });

  it('files without a .dep-v0 section, text named like an executable: nothing', async () => {
    expect(await extract(Buffer.from('#!/bin/sh\nexit 0\n'.repeat(200)))).toEqual([]);
    const libz = '/usr/lib/x86_64-linux-gnu/libz.so.1';
    expect(await cargoAuditableExtractor.extract(inputFile(libz, 'lib/libz.so.1'), ctx)).toEqual([]);
  });
});
