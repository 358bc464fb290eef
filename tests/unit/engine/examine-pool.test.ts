// The licence pass's second thread (server/engine/examine.ts): whatever thread examines a text,
// its findings are the ones this thread would give; texts it still holds when it ends are examined
// here; an analysis of a large tree keeps its findings in tree order.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyse } from '../../../server/engine/analyse.ts';
import { fileAnalyzersFor } from '../../../server/engine/analyzers/index.ts';
import { ExaminePool, SECOND_THREAD_MIN_FILES, examineBytes, type Examiner, type Found } from '../../../server/engine/examine.ts';

const MODES = [1, 4, 7];
let examiners: Examiner[];
let texts: Array<{ name: string; bytes: Uint8Array }>;
let work: string;

beforeAll(async () => {
  examiners = await Promise.all(fileAnalyzersFor(MODES).map((a) => a.start()));
  // Real licence texts (Debian's common-licenses) and source headers with notices.
  const common = '/usr/share/common-licenses';
  const names = (await readdir(common, { withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name).slice(0, 12);
  texts = [];
  for (const name of names) texts.push({ name: 'LICENSE', bytes: await readFile(path.join(common, name)) });
  for (let i = 0; i < 60; i++) {
    const id = ['MIT', 'Apache-2.0', 'GPL-2.0-only', 'BSD-3-Clause'][i % 4];
    texts.push({ name: `file${i}.c`, bytes: Buffer.from(`// SPDX-License-Identifier: ${id}\n// Copyright (c) ${2000 + i} Holder Number ${i} <h${i}@example.org>\nint f${i}(void) { return ${i}; }\n`) });
  }
  texts.push({ name: 'blob.bin', bytes: Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)) });
  work = await mkdtemp(path.join(tmpdir(), 'cairn-examine-'));
}, 60_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const local = (t: { name: string; bytes: Uint8Array }): Found => examineBytes(examiners, t.name, t.name, t.bytes);

describe('ExaminePool', () => {
  it('gives each text the findings this thread gives it, part of them from the second thread', async () => {
    const pool = ExaminePool.start(examiners, MODES, SECOND_THREAD_MIN_FILES, new AbortController().signal);
    try {
      expect(await pool.started).toBe(true);
      const results = texts.map((t) => pool.examine(t.name, t.name, t.bytes));
      expect(results.some((r) => r instanceof Promise)).toBe(true);
      const found = await Promise.all(results);
      expect(found).toEqual(texts.map(local));
      expect(found.filter((f) => f.licenses?.length).length).toBeGreaterThan(60);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('texts the second thread still holds when it ends are examined here', async () => {
    const pool = ExaminePool.start(examiners, MODES, SECOND_THREAD_MIN_FILES, new AbortController().signal);
    expect(await pool.started).toBe(true);
    const results = texts.slice(0, 12).map((t) => pool.examine(t.name, t.name, t.bytes));
    await pool.close();
    expect(await Promise.all(results)).toEqual(texts.slice(0, 12).map(local));
  }, 60_000);

  it('has no second thread for a small tree', async () => {
    const pool = ExaminePool.start(examiners, MODES, SECOND_THREAD_MIN_FILES - 1, new AbortController().signal);
    expect(await pool.started).toBe(false);
    expect(pool.examine('a.c', 'a.c', texts[20]!.bytes)).toEqual(local(texts[20]!));
    await pool.close();
  });
});

describe('an analysis of a tree large enough for the second thread', () => {
  it('finds in every file what examining it alone finds, in tree order', async () => {
    const root = path.join(work, 'tree');
    const expected: Array<{ path: string; found: Found }> = [];
    for (let d = 0; d < 12; d++) {
      const dir = path.join(root, `pkg${String(d).padStart(2, '0')}`);
      await mkdir(dir, { recursive: true });
      for (let i = 0; i < 100; i++) {
        const t = texts[(d * 100 + i) % texts.length]!;
        const name = `${String(i).padStart(3, '0')}-${t.name}`;
        await writeFile(path.join(dir, name), t.bytes);
        expected.push({ path: `tree/pkg${String(d).padStart(2, '0')}/${name}`, found: examineBytes(examiners, name, name, t.bytes) });
      }
    }
    const archive = path.join(work, 'tree.tar');
    execFileSync('tar', ['-cf', archive, '-C', work, 'tree']);
    const result = await analyse({ file: archive, fileName: 'tree.tar', kind: 'source', modes: MODES, workDir: path.join(work, 'run') }, () => undefined, new AbortController().signal);
    const withFindings = expected.filter((e) => Object.values(e.found).some((v) => Array.isArray(v) && v.length));
    const hasSome = new Set(withFindings.map((e) => e.path));
    // Tree order: the order of the file listing.
    expect(result.findings.map((f) => f.path)).toEqual(result.files.map((f) => f.path).filter((p) => hasSome.has(p)));
    expect(result.findings).toHaveLength(withFindings.length);
    const byPath = new Map(result.findings.map((f) => [f.path, f]));
    for (const e of withFindings) expect(byPath.get(e.path), e.path).toMatchObject(e.found);
  }, 120_000);
});
