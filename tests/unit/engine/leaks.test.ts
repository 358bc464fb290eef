// Sensitive information (analysis mode 9) in real binaries: an ELF compiled here from C with the
// strings a careless build leaves in (an internal URL, a build path, a password, a token, a PEM
// header), and a real system binary with a payload appended as a packager would. Offsets are
// checked against the bytes; secrets must never come back in clear.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { leakScanner, masked, MAX_PER_FILE } from '../../../server/engine/detectors/leaks/index.ts';
import { BUILTIN_LEAK_RULES, leakPatternProblem, type LeakRuleSpec } from '../../../server/engine/detectors/leaks/rules.ts';
import { fileStrings, WINDOW } from '../../../server/engine/detectors/leaks/strings.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-leaks-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Built at run time so that no scanner mistakes this file for a leak (AWS's documented example key).
const AWS = 'AKIA' + 'IOSFODNN7EXAMPLE';
const GITHUB = 'ghp_' + 'a1B2c3D4'.repeat(4) + 'e5F6';
const PASSWORD = 'Sup3r' + 'Secr3t!';
const JWT = 'eyJhbGciOiJIUzI1NiJ9' + '.eyJzdWIiOiIxMjM0NTY3ODkwIn0' + '.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk';

const cc = (() => {
  try {
    execFileSync('cc', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const C_SOURCE = `
#include <stdio.h>
static const char *endpoint = "http://nexus.corp.local:8081/repository/releases/";
static const char *db = "postgres://build:${PASSWORD}@10.20.30.40:5432/app";
static const char *cfg = "password=${PASSWORD}";
static const char *key = "${AWS}";
static const char *gh = "${GITHUB}";
static const char *pem = "-----BEGIN RSA PRIVATE KEY-----";
static const char *who = "zhang.wei@dev.example-corp.cn";
static const char *loop = "127.0.0.1";
static const char *version = "libfoo 10.1.2.3.4";
int main(void) { printf("%s %s %s %s %s %s %s %s %s\\n", endpoint, db, cfg, key, gh, pem, who, loop, version); return 0; }
`;

const secretsAbsent = (text: string) => {
  for (const secret of [PASSWORD, AWS.slice(4), GITHUB.slice(4), JWT.split('.')[2]!]) expect(text).not.toContain(secret);
};

describe('sensitive information in binaries', () => {
  it.skipIf(!cc)('finds what a compiled ELF discloses, at the byte offsets of the file, secrets masked', () => {
    const src = path.join(work, 'app.c');
    const bin = path.join(work, 'app');
    writeFileSync(src, C_SOURCE);
    // -g: the build path lands in the debug information, as in a real unstripped release.
    execFileSync('cc', ['-g', '-O0', '-o', bin, src], { cwd: work });
    const bytes = readFileSync(bin);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    const found = leakScanner().scan(bytes);
    const byRule = new Map(found.map((f) => [f.rule, f]));

    expect(byRule.get('builtin:internal-url')?.text).toBe('http://nexus.corp.local:8081/repository/releases/');
    expect(byRule.get('builtin:private-ip')?.text).toBe('10.20.30.40');
    expect(byRule.get('builtin:connection-string')?.text).toBe('postgres://build:********@10.20.30.40');
    expect(byRule.get('builtin:password-assignment')?.text).toBe('password=********');
    expect(byRule.get('builtin:aws-access-key')?.text).toBe('AKIA********MPLE');
    expect(byRule.get('builtin:github-token')?.text).toBe('ghp_********e5F6');
    expect(byRule.get('builtin:private-key')?.text).toBe('-----BEGIN RSA PRIVATE KEY-----');
    expect(byRule.get('builtin:email')?.text).toBe('zhang.wei@dev.example-corp.cn');
    // The compiler recorded where it ran: the work folder under /tmp is no home folder, so no path
    // finding unless the test runs from one; loopback and version strings are not addresses.
    expect(found.some((f) => f.text.includes('127.0.0.1'))).toBe(false);
    expect(found.some((f) => f.text.startsWith('10.1.2.3'))).toBe(false);
    // Offsets point at the match in the file.
    const url = byRule.get('builtin:internal-url')!;
    expect(bytes.subarray(url.offset, url.offset + url.text.length).toString('latin1')).toBe(url.text);
    const aws = byRule.get('builtin:aws-access-key')!;
    expect(bytes.subarray(aws.offset, aws.offset + 4).toString('latin1')).toBe('AKIA');
    secretsAbsent(JSON.stringify(found));
  });

  it('reads a real binary with a payload appended, ASCII and UTF-16LE, and keeps its build paths', () => {
    const real = readFileSync('/bin/true');
    const payload = Buffer.concat([
      Buffer.from('\0\0/home/builder/src/product/build/release/main.o\0', 'latin1'),
      Buffer.from('C:\\Users\\wangfang\\source\\repos\\Product\\x64\\Release\\product.pdb\0', 'utf16le'),
      Buffer.from(`\0token: ${JWT}\0`, 'latin1'),
    ]);
    const bytes = Buffer.concat([real, payload]);
    const found = leakScanner().scan(bytes);
    const home = found.find((f) => f.rule === 'builtin:unix-home');
    expect(home?.text).toBe('/home/builder/src/product/build/release/main.o');
    expect(home?.offset).toBe(real.length + 2);
    const win = found.find((f) => f.rule === 'builtin:windows-home');
    expect(win?.text).toBe('C:\\Users\\wangfang\\source\\repos\\Product\\x64\\Release\\product.pdb');
    // UTF-16LE: two bytes a character.
    expect(bytes.subarray(win!.offset, win!.offset + 6).toString('utf16le')).toBe('C:\\');
    const jwt = found.find((f) => f.rule === 'builtin:jwt');
    expect(jwt?.text).toBe('eyJhbGciOiJIUzI1NiJ9.********EjXk');
    secretsAbsent(JSON.stringify(found));
  });

  it('leaves placeholders, documentation domains and image names alone', () => {
    const text = Buffer.from([
      'password=%s', 'password=${DB_PASSWORD}', 'pwd: ********', 'mysql://user:<password>@db.example.com/app',
      'mail admin@example.com', 'icon@2x.png', 'http://localhost:8080/', 'http://127.0.0.1/', 'see 192.168.300.1',
    ].join('\n'));
    expect(leakScanner().scan(text)).toEqual([]);
  });

  it('turns off the built-in rules the administrators disabled, and keeps at most MAX_PER_FILE a file', () => {
    const text = Buffer.from(Array.from({ length: 200 }, (_, i) => `host${i} = 10.0.${Math.floor(i / 250)}.${i % 250}`).join('\n'));
    expect(leakScanner().scan(text)).toHaveLength(MAX_PER_FILE);
    expect(leakScanner([], ['builtin:private-ip']).scan(text)).toEqual([]);
  });

  it("runs an administrator's rule, masking its secret group or, without one, all but four characters", () => {
    const rules: LeakRuleSpec[] = [
      { key: 'user:1', name: '内部工单号', type: 'host', pattern: String.raw`\bPROJ-\d{4,}\b`, ignoreCase: false },
      { key: 'user:2', name: '数据库口令', type: 'credential', pattern: String.raw`DBPASS\s*=\s*(?<secret>\S+)`, ignoreCase: true },
      { key: 'user:3', name: '内部密钥', type: 'token', pattern: String.raw`corpkey_[a-z0-9]{20}`, ignoreCase: false },
    ];
    const text = Buffer.from(`ticket PROJ-12345\ndbpass = hunter2hunter2\ncorpkey_abcdefghij0123456789\n`);
    const found = leakScanner(rules).scan(text);
    expect(found.map((f) => [f.rule, f.text, f.offset])).toEqual([
      ['user:1', 'PROJ-12345', 7],
      ['user:2', 'dbpass = ********', 18],
      ['user:3', 'corp********6789', 42],
    ]);
  });

  it('stops a slow rule of an administrator on its time limit instead of hanging the analysis', () => {
    // Stored before validation existed, or slower than the probes foresaw.
    const evil: LeakRuleSpec = { key: 'user:9', name: '回溯', type: 'token', pattern: '(a+)+$', ignoreCase: false };
    const text = Buffer.from('a'.repeat(40) + '!\nAKIA' + 'IOSFODNN7EXAMPLE');
    const found = leakScanner([evil]).scan(text);
    expect(found.map((f) => f.rule)).toEqual(['builtin:aws-access-key']);
  });
});

describe('validation of an administrator’s pattern', () => {
  it.each([
    ['', '请填写正则表达式'],
    ['(abc', '正则表达式无法解析'],
    ['a*', '会匹配空字符串'],
    ['(a+)+$', '嵌套的量词'],
    [String.raw`(\w+\s?)*x`, '嵌套的量词'],
    [String.raw`(.*a){3,}`, '嵌套的量词'],
    [String.raw`(a)\1`, '反向引用'],
    ['x'.repeat(301), '不能超过 300 个字符'],
  ])('refuses %j', (pattern, message) => {
    expect(leakPatternProblem(pattern, false)).toContain(message);
  });

  it('refuses a pattern the probes show to backtrack without nesting', () => {
    expect(leakPatternProblem('(a|a)*b', false)).toContain('超时');
  });

  it.each([String.raw`\bPROJ-\d{4,}\b`, String.raw`DBPASS\s*=\s*(?<secret>\S+)`, String.raw`(?:foo|bar)-\d+`, String.raw`(ab){2}`])('accepts %j', (pattern) => {
    expect(leakPatternProblem(pattern, true)).toBeNull();
  });

  it('the built-in rules pass the same checks', () => {
    for (const rule of BUILTIN_LEAK_RULES) expect([rule.key, leakPatternProblem(rule.pattern, rule.ignoreCase)]).toEqual([rule.key, null]);
  });
});

describe('strings of a file', () => {
  it('reads a long run in overlapping windows at their byte offsets', () => {
    const run = 'x'.repeat(3000);
    const got = [...fileStrings(Buffer.from(`\0${run}\0`), false)];
    expect(got[0]).toMatchObject({ offset: 1, width: 1 });
    expect(got.every((s) => s.text.length <= WINDOW)).toBe(true);
    expect(got.reduce((n, s) => Math.max(n, s.offset + s.text.length), 0)).toBe(3001);
  });

  it('masks nothing of a disclosure and clips a long one', () => {
    expect(masked(BUILTIN_LEAK_RULES[0]!, '10.0.0.1', [])).toBe('10.0.0.1');
    expect(masked({ key: 'builtin:x', name: 'x', type: 'path', pattern: '', ignoreCase: false }, '/home/a/' + 'b'.repeat(400), []).length).toBe(301);
  });
});

describe('sensitive information in an analysis', () => {
  it('reads a binary larger than the licence pass reads, by the leak analyzer alone, at its byte offsets', async () => {
    const { analyse, MAX_TEXT_BYTES } = await import('../../../server/engine/analyse.ts');
    const { makeZip } = await import('../../support/make-zip.ts');
    // A 6 MiB "firmware" image: zeros, a build path and a key near its end.
    const big = Buffer.alloc(6 * 1024 * 1024);
    const at = 5 * 1024 * 1024 + 17;
    big.write(`/home/ci/build/fw/main.c\0key=${AWS}\0`, at, 'latin1');
    expect(big.length).toBeGreaterThan(MAX_TEXT_BYTES);
    const zip = path.join(work, 'fw.zip');
    writeFileSync(zip, makeZip({ entries: { 'fw/firmware.bin': big, 'fw/README': 'Copyright (c) 2024 Example Corp\nmail: dev@intra.example-corp.cn\n' } }));
    const result = await analyse({ file: zip, fileName: 'fw.zip', kind: 'binary', modes: [9], workDir: path.join(work, 'analysis') }, () => undefined, new AbortController().signal);
    const leaks = Object.fromEntries(result.findings.map((f) => [f.path, (f.leaks ?? []).map((l) => [l.rule, l.offset, l.text])]));
    expect(leaks['fw/firmware.bin']).toEqual([
      ['builtin:unix-home', at, '/home/ci/build/fw/main.c'],
      ['builtin:aws-access-key', at + 29, 'AKIA********MPLE'],
    ]);
    expect(leaks['fw/README']).toEqual([['builtin:email', 38, 'dev@intra.example-corp.cn']]);
    // Mode 9 alone: no licence or copyright analysis ran.
    expect(result.findings.every((f) => f.copyrights.length === 0 && f.licenses.length === 0)).toBe(true);
    secretsAbsent(JSON.stringify(result.findings));
  });
});
