// `cairn scan --resolve`: unpinned requirements resolved through a PyPI index given on the command
// line (served from files on loopback), and the options refused in Chinese where they do not apply.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanCommand, UsageError } from '../../../cli/commands/scan.ts';
import { serveFiles, type FileRepository } from '../../support/file-repository.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-cli-resolve-'));
let index: FileRepository;
beforeAll(async () => { index = await serveFiles(path.resolve('tests/fixtures/public/online/pypi-index')); });
afterAll(async () => {
  await index.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('cairn scan --resolve', () => {
  it('resolves unpinned requirements through --pypi-index, and leaves them as declared without --resolve', async () => {
    writeFileSync(path.join(work, 'requirements.txt'), 'httplib2>=0.20\n');
    const purls = (output: string) => (JSON.parse(output) as { components: Array<{ purl: string }> }).components.map((c) => c.purl).sort();
    expect(purls((await scanCommand([work])).output)).toEqual(['pkg:pypi/httplib2']);
    const { output, summary } = await scanCommand([work, '--resolve', '--pypi-index', `${index.url}simple/`]);
    expect(purls(output)).toEqual(['pkg:pypi/httplib2@0.20.4', 'pkg:pypi/pyparsing@3.0.9']);
    expect(summary).toMatch(/2 个组件，0 个问题/);
  });

  it('refuses repository options without --resolve, and addresses that are not http(s) or carry credentials', async () => {
    await expect(scanCommand([work, '--pypi-index', 'https://pypi.example.com/simple/'])).rejects.toThrow(new UsageError('--maven-repo、--npm-registry、--pypi-index 只在 --resolve 在线解析时使用'));
    await expect(scanCommand([work, '--resolve', '--maven-repo', 'ftp://repo.example.com/'])).rejects.toThrow('--maven-repo 只支持 http 或 https 地址：ftp://repo.example.com/');
    await expect(scanCommand([work, '--resolve', '--npm-registry', 'https://me:pw@npm.example.com/'])).rejects.toThrow('--npm-registry 的地址不能包含用户名或密码');
    await expect(scanCommand([work, '--resolve', '--pypi-index', 'not a url'])).rejects.toThrow('--pypi-index 的地址无效');
  });
});
