// bun.lockb, read from the binary layout of bun's lockfile.zig, checked against what bun itself
// prints for the same files (bun-print.yarn.lock beside each).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/bun/index.ts';
import { bunLockbExtractor, parseBunLockb } from '../../../../server/engine/extractors/bun/lockb.ts';
import { ExtractError } from '../../../../server/engine/model.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/bun');
const { scan } = useTempScan('cairn-lockb-', extractors);

/** name@version of every registry package bun prints in its yarn.lock form. */
function printed(folder: string): string[] {
  const text = readFileSync(path.join(FIXTURES, folder, 'bun-print.yarn.lock'), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^"?((?:@[^/@\s]+\/)?[^@\s"]+)@[^\n]*:\n {2}version "([^"]+)"/gm)) {
    if (!m[2]!.startsWith('workspace:')) out.push(`${m[1]}@${m[2]}`);
  }
  return out.sort();
}
const byName = (t: Target) => new Map(t.components.map((c) => [`${c.name}@${c.version}`, c]));

describe('bun.lockb', () => {
  it('claims bun.lockb outside node_modules', () => {
    expectClaims(bunLockbExtractor, ['bun.lockb', 'apps/web/bun.lockb'], ['bun.lock', 'node_modules/x/bun.lockb', 'bun.lockb.bak']);
  });

  it('lockb-basic: exactly the packages bun prints, with versions, edges and development scope', async () => {
    const result = await scanTree(path.join(FIXTURES, 'lockb-basic'), { extractors });
    expect(result.problems).toEqual([]);
    const t = result.targets.find((x) => x.type === 'bun-lockb')!;
    expect(t.project).toMatchObject({ name: 'lockb-sample', version: '1.0.0' });
    expect(t.components.map((c) => `${c.name}@${c.version}`).sort()).toEqual(printed('lockb-basic'));
    const c = byName(t);
    expect(c.get('chalk@4.1.2')).toMatchObject({ purl: 'pkg:npm/chalk@4.1.2', direct: true, scope: 'runtime', dependsOn: ['pkg:npm/ansi-styles@4.3.0', 'pkg:npm/supports-color@7.2.0'] });
    expect(c.get('color-name@1.1.4')).toMatchObject({ direct: false, scope: 'runtime' });
    expect(c.get('is-number@7.0.0')).toMatchObject({ direct: true, scope: 'development' });
    expect(t.roots.sort()).toEqual(['pkg:npm/chalk@4.1.2', 'pkg:npm/is-number@7.0.0', 'pkg:npm/ms@2.1.3']);
  });

  it('lockb-workspaces: workspace packages are the project\'s own, their dependencies direct; scoped and prerelease names', async () => {
    const result = await scanTree(path.join(FIXTURES, 'lockb-workspaces'), { extractors });
    expect(result.problems).toEqual([]);
    const t = result.targets.find((x) => x.type === 'bun-lockb')!;
    expect(t.components.map((c) => `${c.name}@${c.version}`).sort()).toEqual(printed('lockb-workspaces'));
    const c = byName(t);
    expect(c.get('@sindresorhus/is@4.6.0')).toMatchObject({ purl: 'pkg:npm/%40sindresorhus/is@4.6.0', direct: true, scope: 'runtime' });
    expect(c.get('typescript@5.0.0-beta')).toMatchObject({ direct: true, scope: 'development' });
    expect(c.get('fsevents@2.3.3')).toMatchObject({ direct: true, scope: 'runtime' });
    expect(c.get('debug@4.3.4')).toMatchObject({ direct: true, dependsOn: ['pkg:npm/ms@2.1.2'] });
    expect(c.get('ms@2.1.3')).toMatchObject({ direct: true });
    expect(c.get('ms@2.1.2')).toMatchObject({ direct: false });
    expect(t.components.some((x) => x.name === 'web')).toBe(false);
  });

  it('a bun.lockb beside bun.lock is stale and left out; damaged files are ExtractErrors in Chinese', async () => {
    const lockb = readFileSync(path.join(FIXTURES, 'lockb-basic/bun.lockb'));
    const both = await scan({ 'bun.lockb': lockb, 'bun.lock': '{"lockfileVersion": 1, "workspaces": {"": {"name": "x"}}, "packages": {}}' });
    expect(both.targets.map((t) => t.type)).toEqual(['bun']);
    expect(() => parseBunLockb(Buffer.from('{"lockfileVersion": 1}'), 'bun.lockb')).toThrow(ExtractError);
    expect(() => parseBunLockb(lockb.subarray(0, 200), 'bun.lockb')).toThrow(/bun\.lockb/);
    const corrupt = Buffer.from(lockb);
    corrupt.writeBigUInt64LE(0xffffffffn, 86 + 24); // packages begin far past the end
    expect(() => parseBunLockb(corrupt, 'bun.lockb')).toThrow(ExtractError);
  });
});
