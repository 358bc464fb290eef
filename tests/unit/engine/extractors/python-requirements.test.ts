// requirements*.txt: the trivy fixture plus synthetic edge cases (includes, constraint files,
// cycles, markers, extras, hashes, continuations, editable/URL/VCS entries).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ExtractContext, InputFile, Target } from '../../../../server/engine/model.ts';
import { ExtractError } from '../../../../server/engine/model.ts';
import { decodeRequirements, isRequirementsFile, logicalLines, parseRequirement, requirements, requirementsExtractor, scopeOfFile } from '../../../../server/engine/extractors/python/requirements.ts';
import { TRIVY } from '../../../support/golden.ts';

function memory(files: Record<string, string>): { ctx: ExtractContext; file: (p: string) => InputFile; reads: string[] } {
  const reads: string[] = [];
  const ctx: ExtractContext = {
    signal: new AbortController().signal,
    readText: async (p) => { reads.push(p); return files[p]; },
    list: async () => [],
    exists: async (p) => p in files,
  };
  const file = (p: string): InputFile => ({ path: p, size: files[p].length, read: async () => Buffer.from(files[p]), text: async () => files[p] });
  return { ctx, file, reads };
}

/** Reads `entry`; unpinned requirements are left out unless `options` says otherwise (the extractor's default reports them). */
async function run(files: Record<string, string>, entry: string, options: { includeUnpinned?: boolean } = { includeUnpinned: false }): Promise<Target> {
  const m = memory(files);
  const [target] = await requirementsExtractor(options).extract(m.file(entry), m.ctx);
  return target;
}

const byName = (t: Target) => Object.fromEntries(t.components.map((c) => [c.name, c]));

describe('requirements.txt', () => {
  it('读取 trivy 的 pip 示例：== 固定的版本，未固定的以空版本和声明的范围报告，带行号', async () => {
    const text = await readFile(path.join(TRIVY, 'repo/pip/requirements.txt'), 'utf8');
    const m = memory({ 'requirements.txt': text });
    const [t] = await requirements.extract(m.file('requirements.txt'), m.ctx);
    expect(t.type).toBe('pip');
    expect(t.file).toBe('requirements.txt');
    expect(t.components.map((c) => c.purl).sort()).toEqual([
      'pkg:pypi/click@8.0.0', 'pkg:pypi/flask@2.0.0', 'pkg:pypi/itsdangerous@2.0.0', 'pkg:pypi/jinja2@3.0.0',
      'pkg:pypi/markupsafe', 'pkg:pypi/oauth2-client@4.0.0', 'pkg:pypi/python-gitlab@2.0.0', 'pkg:pypi/werkzeug@0.11',
    ]);
    expect(byName(t).MarkupSafe).toMatchObject({ version: '', constraint: '>2.0.0', direct: true, locations: [{ file: 'requirements.txt', startLine: 5, endLine: 5 }] });
    expect(byName(t).Flask.constraint).toBeUndefined();
    const flask = byName(t).Flask;
    expect(flask).toMatchObject({ name: 'Flask', version: '2.0.0', direct: true, scope: 'runtime', locations: [{ file: 'requirements.txt', startLine: 2, endLine: 2 }] });
    expect(t.roots).toHaveLength(8);
  });

  it('匹配文件名', () => {
    expect(isRequirementsFile('requirements.txt')).toBe(true);
    expect(isRequirementsFile('a/b/requirements-dev.txt')).toBe(true);
    expect(isRequirementsFile('dev-requirements.txt')).toBe(true);
    expect(isRequirementsFile('requirements/base.txt')).toBe(true);
    expect(isRequirementsFile('requirements/README.txt')).toBe(false);
    expect(isRequirementsFile('notes.txt')).toBe(false);
    expect(isRequirementsFile('requirements.in')).toBe(false);
    expect(isRequirementsFile('venv/lib/python3.12/site-packages/foo/requirements.txt')).toBe(false);
    expect(scopeOfFile('requirements-dev.txt')).toBe('development');
    expect(scopeOfFile('requirements/test.txt')).toBe('development');
    expect(scopeOfFile('requirements.txt')).toBe('runtime');
  });

  it('续行、注释、哈希、extras、环境标记与 ===', async () => {
    const t = await run({
      'requirements.txt': [
        '# comment',
        'requests[security,socks]==2.31.0 \\',
        '    --hash=sha256:aaaa \\',
        '    --hash=sha256:bbbb',
        'pywin32==306 ; sys_platform == "win32"  # windows only',
        'Django === 4.2.1',
        'urllib3 (==1.26.18)',
        'six==1.16.*',
        '--index-url https://example.org/simple',
        '-i https://example.org/simple',
        '--extra-index-url=https://x',
        'zope.interface==6.0',
      ].join('\n'),
    }, 'requirements.txt');
    const c = byName(t);
    expect(c.requests).toMatchObject({ version: '2.31.0', purl: 'pkg:pypi/requests@2.31.0', locations: [{ startLine: 2, endLine: 4 }] });
    expect(c.pywin32).toMatchObject({ version: '306', locations: [{ startLine: 5, endLine: 5 }] });
    expect(c.Django.purl).toBe('pkg:pypi/django@4.2.1');
    expect(c.urllib3.version).toBe('1.26.18');
    expect(c.six).toBeUndefined();
    expect(c['zope.interface'].purl).toBe('pkg:pypi/zope-interface@6.0');
    expect(t.components).toHaveLength(5);
  });

  it('未固定版本：默认以空版本和声明的范围报告，includeUnpinned: false 时不报告；别处固定的只报告固定版本', async () => {
    const files = { 'requirements.txt': 'flask>=2\nrequests\nclick>=8\nclick==8.1.0\nDjango (>=3.2, <4.0) ; python_version >= "3.8"\n' };
    const off = await run(files, 'requirements.txt');
    expect(off.components.map((c) => c.purl)).toEqual(['pkg:pypi/click@8.1.0']);
    const on = await run(files, 'requirements.txt', {});
    expect(on.components.map((c) => c.purl).sort()).toEqual(['pkg:pypi/click@8.1.0', 'pkg:pypi/django', 'pkg:pypi/flask', 'pkg:pypi/requests']);
    expect(byName(on).flask).toMatchObject({ version: '', constraint: '>=2' });
    expect(byName(on).Django).toMatchObject({ version: '', constraint: '>=3.2,<4.0' });
    // Nothing declared at all: version '' and no range.
    expect(byName(on).requests.version).toBe('');
    expect(byName(on).requests.constraint).toBeUndefined();
    expect(byName(on).click.constraint).toBeUndefined();
  });

  it('-r 与 -c 相对于所在文件解析，约束文件只固定版本', async () => {
    const t = await run({
      'app/requirements.txt': '-r base/common.txt\n-c constraints.txt\nflask\nrequests>=2\n',
      'app/base/common.txt': 'click==8.0.0\n--requirement ../extra.txt\n',
      'app/extra.txt': 'attrs==23.1.0\n',
      'app/constraints.txt': 'flask==2.0.0\nnot-listed==1.0\n',
    }, 'app/requirements.txt');
    const c = byName(t);
    expect(Object.keys(c).sort()).toEqual(['attrs', 'click', 'flask']);
    expect(c.click.locations).toEqual([{ file: 'app/base/common.txt', startLine: 1, endLine: 1 }]);
    expect(c.attrs.locations[0].file).toBe('app/extra.txt');
    expect(c.flask).toMatchObject({ version: '2.0.0', locations: [{ file: 'app/requirements.txt', startLine: 3, endLine: 3 }] });
  });

  it('循环包含只读一次，不会挂起；缺失的包含文件被忽略；不会越出扫描根', async () => {
    const m = memory({
      'requirements.txt': '-r a.txt\nsix==1.16.0\n-r missing.txt\n-r ../../etc/passwd\n-r https://example.org/r.txt\n',
      'a.txt': '-r requirements.txt\n-r a.txt\nattrs==23.1.0\n',
    });
    const [t] = await requirements.extract(m.file('requirements.txt'), m.ctx);
    expect(t.components.map((c) => c.name).sort()).toEqual(['attrs', 'six']);
    expect(m.reads.sort()).toEqual(['a.txt', 'missing.txt']);
  });

  it('同一包重复出现时合并位置', async () => {
    const t = await run({ 'requirements.txt': 'six==1.16.0\n-r other.txt\n', 'other.txt': 'Six==1.16.0\n' }, 'requirements.txt');
    expect(t.components).toHaveLength(1);
    expect(t.components[0].locations.map((l) => l.file)).toEqual(['requirements.txt', 'other.txt']);
  });

  it('可编辑、URL 与 VCS 条目', async () => {
    const t = await run({
      'requirements.txt': [
        '-e git+https://github.com/pallets/click.git@8.1.3#egg=click',
        '-e .',
        '--editable ./libs/local',
        'mylib @ https://example.org/pkgs/mylib-1.2.3-py3-none-any.whl',
        'other @ git+https://github.com/o/other.git@v2',
        'https://example.org/dist/tarpkg-0.9.tar.gz',
        'git+https://github.com/o/thing.git#egg=thing-1.0',
      ].join('\n'),
    }, 'requirements.txt');
    const c = byName(t);
    expect(Object.keys(c).sort()).toEqual(['click', 'mylib', 'other', 'tarpkg', 'thing']);
    expect(c.click.version).toBe('');
    expect(c.mylib.version).toBe('1.2.3');
    expect(c.other.version).toBe('');
    expect(c.tarpkg.version).toBe('0.9');
    expect(c.thing.version).toBe('1.0');
  });

  it('开发用文件的组件为 development', async () => {
    const t = await run({ 'requirements-dev.txt': '-r requirements.txt\npytest==8.0.0\n', 'requirements.txt': 'six==1.16.0\n' }, 'requirements-dev.txt');
    expect(byName(t).pytest.scope).toBe('development');
    expect(byName(t).six.scope).toBe('runtime');
  });

  it('UTF-16（带 BOM）可读，二进制内容抛出 ExtractError', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('six==1.16.0\r\nattrs==23.1.0\r\n', 'utf16le')]);
    expect(decodeRequirements(le, 'r.txt')).toBe('six==1.16.0\r\nattrs==23.1.0\r\n');
    const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('six==1.16.0', 'utf16le').swap16(), Buffer.from([0x41])]);
    expect(decodeRequirements(be, 'r.txt')).toBe('six==1.16.0');
    const file: InputFile = { path: 'requirements.txt', size: le.length, read: async () => le, text: async () => le.toString() };
    const [t] = await requirements.extract(file, memory({}).ctx);
    expect(t.components.map((c) => c.purl)).toEqual(['pkg:pypi/six@1.16.0', 'pkg:pypi/attrs@23.1.0']);
    expect(() => decodeRequirements(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]), 'requirements.txt')).toThrow(ExtractError);
  });

  it('逻辑行与单行解析', () => {
    expect(logicalLines('a==1 \\\n  --hash=x\n\n# c\nb==2 # tail\n').map((l) => ({ ...l, text: l.text.replace(/\s+/g, ' ') }))).toEqual([
      { text: 'a==1 --hash=x', startLine: 1, endLine: 2 },
      { text: 'b==2', startLine: 5, endLine: 5 },
    ]);
    expect(parseRequirement('foo[bar]==1.0; python_version < "3.8"', 'r.txt', 1, 1)).toMatchObject({ name: 'foo', version: '1.0', extras: ['bar'], markers: 'python_version < "3.8"' });
    expect(parseRequirement('foo>=1,<2', 'r.txt', 1, 1)?.version).toBe('');
    expect(parseRequirement('!!!', 'r.txt', 1, 1)).toBeUndefined();
  });

  it('大文件线性完成', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `pkg-${i}==1.${i}.0 --hash=sha256:${'a'.repeat(64)}`);
    const t = await run({ 'requirements.txt': lines.join('\n') }, 'requirements.txt');
    expect(t.components).toHaveLength(5000);
  });
});
