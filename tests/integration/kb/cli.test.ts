// The knowledge-base commands of `cairn` as a user runs them (a real process each time):
// `kb import` into a database file, `scan --kb` adding findings to the JSON inventory, and
// `compare-versions` answering from stdin. Bad arguments are refused in Chinese.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPORA, TRIVY } from '../../support/golden.ts';

const work = mkdtempSync(path.join(os.tmpdir(), 'cairn-kb-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const kbFile = path.join(work, 'kb.db');

const cairn = (args: string[], input?: string) => {
  const result = spawnSync(process.execPath, ['cli/cairn.ts', ...args], { encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
};

interface Vulnerability { id: string; aliases: string[]; level: number; score: number | null; exploit: number; fixedVersions: string[]; summary: string }
interface Component { purl: string; riskLevel: number; vulnerabilities: Vulnerability[] }

describe('cairn kb / scan --kb / compare-versions', () => {
  it('imports trivy’s database and the Go advisories into a knowledge-base file', () => {
    const trivy = cairn(['kb', 'import', '--db', kbFile, path.join(TRIVY, 'db')]);
    expect(trivy.code, trivy.stderr).toBe(0);
    expect(trivy.stdout).toMatch(/新增 \d+/);
    const go = cairn(['kb', 'import', '--db', kbFile, path.join(CORPORA, 'advisories', 'go')]);
    expect(go.code, go.stderr).toBe(0);
    // The same input again changes nothing.
    const again = cairn(['kb', 'import', '--db', kbFile, path.join(TRIVY, 'db')]);
    expect(again.stdout).toMatch(/新增 0，更新 0/);
  }, 120_000);

  it('scan --kb adds each component’s findings and risk level', () => {
    const run = cairn(['scan', path.join(TRIVY, 'repo', 'pnpm'), '--kb', kbFile, '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/个组件命中 \d+ 个漏洞/);
    const doc = JSON.parse(run.stdout) as { components: Component[]; vulnerabilitySummary: { findings: number } };
    const lodash = doc.components.find((c) => c.purl === 'pkg:npm/lodash@4.17.4')!;
    expect(lodash.riskLevel).toBe(1);
    expect(lodash.vulnerabilities).toEqual([expect.objectContaining({ id: 'CVE-2019-10744', level: 1, fixedVersions: ['4.17.12'] })]);
    const jquery = doc.components.find((c) => c.purl === 'pkg:npm/jquery@3.3.9')!;
    expect(jquery.vulnerabilities.map((v) => v.id)).toEqual(['CVE-2019-11358']);
    expect(doc.components.filter((c) => c.vulnerabilities.length === 0).every((c) => c.riskLevel === 32)).toBe(true);
    expect(doc.vulnerabilitySummary.findings).toBe(2);
  }, 60_000);

  it('scan --kb refuses a missing knowledge base and non-JSON formats', () => {
    const missing = cairn(['scan', path.join(TRIVY, 'repo', 'pnpm'), '--kb', path.join(work, 'nope.db')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('找不到知识库文件');
    const cdx = cairn(['scan', path.join(TRIVY, 'repo', 'pnpm'), '--kb', kbFile, '--format', 'cyclonedx']);
    expect(cdx.code).toBe(2);
    expect(cdx.stderr).toContain('--kb 目前只能与 --format json 一起使用');
  });

  it('compare-versions prints <, = or > per pair by the ecosystem’s rules', () => {
    const maven = cairn(['compare-versions', '--ecosystem', 'maven'], '1.0 1\n1.0-alpha-1 1.0\n2.0.0.RELEASE 2.0.0\n1.0-SNAPSHOT 1.0\n');
    expect(maven.code, maven.stderr).toBe(0);
    expect(maven.stdout).toBe('=\n<\n=\n<\n');
    const pypi = cairn(['compare-versions', '--ecosystem', 'PyPI'], '1.0rc1 1.0\n1!0.1 2.0\n# comment\n1.0.post1 1.0\n');
    expect(pypi.stdout).toBe('<\n>\n>\n');
    const deb = cairn(['compare-versions', '--ecosystem', 'Debian'], '1.0~rc1-1 1.0-1\n');
    expect(deb.stdout).toBe('<\n');
    const bad = cairn(['compare-versions', '--ecosystem', 'npm'], 'only-one\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('第 1 行应为「A B」两个版本');
    expect(cairn(['compare-versions']).code).toBe(2);
  });
});
