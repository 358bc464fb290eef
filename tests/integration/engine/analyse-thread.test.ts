// The analysis thread: a real analysis of a zip, and a thread that runs out of its heap cap ends as
// a failed analysis with a Chinese message while this process goes on.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseInWorker, licenseText } from '../../../server/engine/index.ts';
import { isUserError } from '../../../server/errors.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-analyse-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const zip = path.join(work, 'npm.zip');
execFileSync('zip', ['-qr', zip, '.'], { cwd: path.resolve('../shared/corpora/trivy/repo/npm') });

describe('analyseInWorker', () => {
  it('analyses an archive in a worker thread with progress', async () => {
    const stages = new Set<string>();
    const result = await analyseInWorker(
      { file: zip, fileName: 'npm.zip', kind: 'source', modes: [1, 4, 7], workDir: mkdtempSync(path.join(work, 'run-')) },
      { onProgress: (p) => stages.add(p.stage) },
    );
    expect(result.components.length).toBeGreaterThan(5);
    expect(result.files.some((f) => f.path === 'package-lock.json')).toBe(true);
    expect([...stages]).toEqual(expect.arrayContaining(['preparing', 'scanning', 'licenses']));
  });

  it('reads licence and copyright notices in each file\'s encoding, and in binaries\' strings', async () => {
    const tree = path.join(work, 'encodings');
    mkdirSync(tree, { recursive: true });
    // UTF-16LE with a byte-order mark (Windows "Unicode" text), Latin-1, and a shared library.
    writeFileSync(path.join(tree, 'LICENSE.txt'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(licenseText('MIT').replace(/\n/g, '\r\n'), 'utf16le')]));
    writeFileSync(path.join(tree, 'AUTHORS'), Buffer.from('Copyright (C) 2003 Jérôme Lefèvre\n', 'latin1'));
    const strings = ['Copyright (C) 2012 Example Widgets Inc.', 'Licensed under the Apache License, Version 2.0'];
    writeFileSync(path.join(tree, 'libwidget.so'), Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(56), ...strings.map((s) => Buffer.from(`${s}\0`)), Buffer.alloc(8, 0xff)]));
    const archive = path.join(work, 'encodings.zip');
    execFileSync('zip', ['-qr', archive, '.'], { cwd: tree });

    const result = await analyseInWorker({ file: archive, fileName: 'encodings.zip', kind: 'source', modes: [4, 7], workDir: mkdtempSync(path.join(work, 'run-')) });
    const byPath = new Map(result.findings.map((f) => [f.path, f]));
    expect(byPath.get('LICENSE.txt')?.licenses.map((l) => [l.spdx, l.kind])).toEqual([['MIT', 'text']]);
    expect(byPath.get('AUTHORS')?.copyrights.map((c) => c.statement)).toEqual([expect.stringMatching(/^Copyright \(c\) 2003 J.r.me Lef.vre$/)]);
    expect(byPath.get('libwidget.so')?.licenses.map((l) => l.spdx)).toEqual(['Apache-2.0']);
    expect(byPath.get('libwidget.so')?.copyrights.map((c) => c.holder)).toEqual(['Example Widgets Inc.']);
  });

  it('refuses a file that is not an archive for a source project', async () => {
    await expect(analyseInWorker({ file: path.resolve('package.json'), fileName: 'package.json', kind: 'source', modes: [1], workDir: mkdtempSync(path.join(work, 'run-')) }))
      .rejects.toThrow(/不是可识别的压缩包/);
  });

  it('names an SBOM given as a source archive, and the SBOM serialisation it does not read', async () => {
    const spdx3 = path.resolve(import.meta.dirname, '../../fixtures/public/sbom/spdx3/example11-sbom.spdx.json');
    await expect(analyseInWorker({ file: spdx3, fileName: 'sbom.spdx.json', kind: 'source', modes: [1], workDir: mkdtempSync(path.join(work, 'run-')) }))
      .rejects.toThrow('上传的文件 sbom.spdx.json 是SPDX 3.0 JSON-LD 格式的 SBOM，不是压缩包：请选择「SBOM 文件」来源类型分析它');
    const pb = path.join(work, 'bom.cdx.pb');
    writeFileSync(pb, Buffer.concat([Buffer.from([0x0a, 0x03]), Buffer.from('1.6'), Buffer.from([0x10, 0x01])]));
    await expect(analyseInWorker({ file: pb, fileName: 'bom.cdx.pb', kind: 'sbom', modes: [1], workDir: mkdtempSync(path.join(work, 'run-')) }))
      .rejects.toThrow(/^SBOM 文件 bom\.cdx\.pb 是CycloneDX protobuf 二进制格式/);
    const result = await analyseInWorker({ file: spdx3, fileName: 'sbom.spdx.json', kind: 'sbom', modes: [1], workDir: mkdtempSync(path.join(work, 'run-')) });
    expect(result.components.map((c) => c.purl).sort()).toEqual(['pkg:cargo/hyper@0.14', 'pkg:cargo/pretty_env_logger@0.4.0', 'pkg:cargo/tokio@1.19.2']);
  });

  it('keeps a refusal a UserError across the thread, so a run shows its message as it is', async () => {
    const error: unknown = await analyseInWorker({ file: path.resolve('package.json'), fileName: 'package.json', kind: 'source', modes: [1], workDir: mkdtempSync(path.join(work, 'run-')) })
      .catch((e: unknown) => e);
    expect(isUserError(error)).toBe(true);
  });

  it('ends a thread that exceeds its heap cap without harming this process', async () => {
    await expect(analyseInWorker({ file: zip, fileName: 'npm.zip', kind: 'source', modes: [1, 4, 7], workDir: mkdtempSync(path.join(work, 'run-')) }, { maxHeapMb: 4 }))
      .rejects.toThrow(/内存超出上限|异常退出/);
    expect(process.memoryUsage().rss).toBeGreaterThan(0);
  });
});
