import { describe, expect, it } from 'vitest';
import { useTempScan } from '../../../support/temp-scan.ts';
import type { Component, Target } from '../../../../server/engine/model.ts';
import { parse as parseYaml } from 'yaml';
import { extractors, parsePnpmKey } from '../../../../server/engine/extractors/pnpm/index.ts';
import { parseYamlValues } from '../../../../server/engine/extractors/common/yaml-lines.ts';


const { scan, scanMalformed } = useTempScan('cairn-pnpm-', extractors);

const byName = (t: Target) => new Map<string, Component>(t.components.map((c) => [`${c.name}@${c.version}`, c]));

const V5 = `lockfileVersion: 5.4

specifiers:
  react-dom: ^17.0.0
  '@types/react': ^17.0.0

dependencies:
  react-dom: 17.0.2_react@17.0.2

devDependencies:
  '@types/react': 17.0.80

packages:

  /react-dom/17.0.2_react@17.0.2:
    resolution: {integrity: sha512-x}
    peerDependencies:
      react: 17.0.2
    dependencies:
      loose-envify: 1.4.0
      react: 17.0.2
    dev: false

  /react/17.0.2:
    resolution: {integrity: sha512-y}
    dependencies:
      loose-envify: 1.4.0
    dev: false

  /loose-envify/1.4.0:
    resolution: {integrity: sha512-z}
    dev: false

  /@types/react/17.0.80:
    resolution: {integrity: sha512-w}
    dev: true
`;

const V6 = `lockfileVersion: '6.0'

importers:

  .:
    dependencies:
      lib:
        specifier: workspace:*
        version: link:packages/lib
      react-dom:
        specifier: ^18.2.0
        version: 18.2.0(react@18.2.0)
    devDependencies:
      vitest:
        specifier: ^1.0.0
        version: 1.0.0

  packages/lib:
    dependencies:
      '@scope/util':
        specifier: ^2.0.0
        version: 2.0.0

packages:

  /@scope/util@2.0.0:
    resolution: {integrity: sha512-a}
    dev: false

  /react-dom@18.2.0(react@18.2.0):
    resolution: {integrity: sha512-b}
    peerDependencies:
      react: ^18.2.0
    dependencies:
      react: 18.2.0
    dev: false

  /react@18.2.0:
    resolution: {integrity: sha512-c}
    dev: false

  /vitest@1.0.0:
    resolution: {integrity: sha512-d}
    engines: {node: '>=14.0.0'}
    hasBin: true
    dependencies:
      '@scope/util': 2.0.0
    transitivePeerDependencies:
      - supports-color
    dev: true

  github.com/user/repo/abc123:
    resolution: {tarball: https://codeload.github.com/user/repo/tar.gz/abc123}
    name: gitdep
    version: 0.3.0
    dev: false
`;

const V9 = `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    dependencies:
      react-dom:
        specifier: ^18.2.0
        version: 18.2.0(react@18.2.0)
      wrap:
        specifier: npm:string-width@^4
        version: string-width@4.2.3
    devDependencies:
      typescript:
        specifier: ^5.4.0
        version: 5.4.5

  packages/app:
    devDependencies:
      react:
        specifier: ^18.2.0
        version: 18.2.0

packages:

  loose-envify@1.4.0:
    resolution: {integrity: sha512-a}
    hasBin: true

  react-dom@18.2.0:
    resolution: {integrity: sha512-b}
    peerDependencies:
      react: ^18.2.0

  react@18.2.0:
    resolution: {integrity: sha512-c}
    engines: {node: '>=0.10.0'}

  string-width@4.2.3:
    resolution: {integrity: sha512-d}

  typescript@5.4.5:
    resolution: {integrity: sha512-e}

  '@types/node@20.0.0':
    resolution: {integrity: sha512-f}

snapshots:

  loose-envify@1.4.0: {}

  react-dom@18.2.0(react@18.2.0):
    dependencies:
      loose-envify: 1.4.0
      react: 18.2.0

  react@18.2.0:
    dependencies:
      loose-envify: 1.4.0

  string-width@4.2.3: {}

  typescript@5.4.5:
    dependencies:
      '@types/node': 20.0.0

  '@types/node@20.0.0': {}
`;

describe('pnpm-lock.yaml', () => {
  it('5.x：/名称/版本_peer 键，去掉 peer 后缀，dev 标记', async () => {
    const r = await scan({ 'pnpm-lock.yaml': V5 });
    expect(r.problems).toEqual([]);
    const t = r.targets[0];
    expect(t.type).toBe('pnpm');
    const m = byName(t);
    expect([...m.keys()].sort()).toEqual(['@types/react@17.0.80', 'loose-envify@1.4.0', 'react-dom@17.0.2', 'react@17.0.2']);
    expect(m.get('react-dom@17.0.2')).toMatchObject({ direct: true, scope: 'runtime', dependsOn: ['pkg:npm/loose-envify@1.4.0', 'pkg:npm/react@17.0.2'] });
    expect(m.get('react-dom@17.0.2')!.locations).toEqual([{ file: 'pnpm-lock.yaml', startLine: 15, endLine: 22 }]);
    expect(m.get('@types/react@17.0.80')).toMatchObject({ direct: true, scope: 'development', purl: 'pkg:npm/%40types/react@17.0.80' });
    expect(t.roots).toEqual(['pkg:npm/react-dom@17.0.2', 'pkg:npm/%40types/react@17.0.80']);
  });

  it('6.x：importers 工作区、link: 不是组件、非注册表包使用 name/version 字段', async () => {
    const r = await scan({ 'pnpm-lock.yaml': V6, 'package.json': { name: 'mono', version: '1.0.0' } });
    expect(r.problems).toEqual([]);
    const t = r.targets[0];
    expect(t.project?.purl).toBe('pkg:npm/mono@1.0.0');
    const m = byName(t);
    expect([...m.keys()].sort()).toEqual(['@scope/util@2.0.0', 'gitdep@0.3.0', 'react-dom@18.2.0', 'react@18.2.0', 'vitest@1.0.0']);
    expect(m.get('@scope/util@2.0.0')).toMatchObject({ direct: true, scope: 'runtime' });
    expect(m.get('react-dom@18.2.0')!.dependsOn).toEqual(['pkg:npm/react@18.2.0']);
    expect(m.get('vitest@1.0.0')).toMatchObject({ direct: true, scope: 'development', dependsOn: ['pkg:npm/%40scope/util@2.0.0'] });
    expect(m.get('react@18.2.0')).toMatchObject({ direct: false, scope: 'runtime' });
  });

  it('9.x：snapshots 图、别名、由 importers 推导开发依赖', async () => {
    const r = await scan({ 'pnpm-lock.yaml': V9 });
    expect(r.problems).toEqual([]);
    const m = byName(r.targets[0]);
    expect([...m.keys()].sort()).toEqual(['@types/node@20.0.0', 'loose-envify@1.4.0', 'react-dom@18.2.0', 'react@18.2.0', 'string-width@4.2.3', 'typescript@5.4.5']);
    expect(m.get('react-dom@18.2.0')).toMatchObject({ direct: true, scope: 'runtime', dependsOn: ['pkg:npm/loose-envify@1.4.0', 'pkg:npm/react@18.2.0'] });
    expect(m.get('react@18.2.0')).toMatchObject({ direct: true, scope: 'runtime' });
    expect(m.get('string-width@4.2.3')).toMatchObject({ direct: true, scope: 'runtime' });
    expect(m.get('typescript@5.4.5')).toMatchObject({ direct: true, scope: 'development' });
    expect(m.get('@types/node@20.0.0')).toMatchObject({ direct: false, scope: 'development' });
    expect(m.get('react@18.2.0')!.locations[0]).toMatchObject({ startLine: 39, endLine: 41 });
  });

  it('6.x 没有 dev 标记时由 importers 推导开发依赖', async () => {
    const r = await scan({ 'pnpm-lock.yaml': V6.replace(/\n {4}dev: (true|false)/g, '') });
    const m = byName(r.targets[0]);
    expect(m.get('vitest@1.0.0')!.scope).toBe('development');
    expect(m.get('react@18.2.0')!.scope).toBe('runtime');
    expect(m.get('@scope/util@2.0.0')!.scope).toBe('runtime');
  });

  it('解析各版本的包键', () => {
    expect(parsePnpmKey('/@babel/core/7.0.0_supports-color@5.5.0', 5.4)).toEqual({ name: '@babel/core', version: '7.0.0' });
    expect(parsePnpmKey('/@babel/core@7.0.0(supports-color@5.5.0)', 6)).toEqual({ name: '@babel/core', version: '7.0.0' });
    expect(parsePnpmKey('@babel/core@7.0.0(supports-color@5.5.0)(x@1.0.0)', 9)).toEqual({ name: '@babel/core', version: '7.0.0' });
    expect(parsePnpmKey('github.com/user/repo/abc', 6)).toBeUndefined();
  });
});

describe('锁文件 YAML 快速解析', () => {
  const strings = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(strings) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, strings(x)])) : typeof v === 'number' ? String(v) : v;
  it.each([['5.x', V5], ['6.x', V6], ['9.x', V9]])('%s 与 yaml 库结果一致', (_name, text) => {
    expect(strings(parseYamlValues(text, 'pnpm-lock.yaml'))).toEqual(strings(parseYaml(text)));
  });
});

describe('pnpm 格式错误的输入', () => {
  it.each([
    ['lockfileVersion: 6.0\npackages:\n  /a@1.0.0: [\n', '不是有效的 YAML'],
    ['- 1\n- 2\n', '顶层不是映射'],
    ['packages: {}\n', '缺少 lockfileVersion'],
    ['lockfileVersion: 3\n', '过旧'],
    ['lockfileVersion: 6.0\n  bad: indent\n', '不是有效的 YAML'],
  ])('%j 报告中文问题', async (body, message) => {
    const r = await scanMalformed('pnpm-lock.yaml', body, "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      a:\n        specifier: ^1\n        version: 1.0.0\npackages:\n  a@1.0.0: {}\nsnapshots:\n  a@1.0.0: {}\n", message);
    expect(r.targets[0].components.map((c) => c.purl)).toEqual(['pkg:npm/a@1.0.0']);
  });

  it('YAML 别名炸弹不会挂起', async () => {
    const bomb = ['lockfileVersion: 6.0', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let k = 0; k < 12; k++) bomb.push(`${String.fromCharCode(98 + k)}: &${String.fromCharCode(98 + k)} [*${String.fromCharCode(97 + k)},*${String.fromCharCode(97 + k)},*${String.fromCharCode(97 + k)},*${String.fromCharCode(97 + k)},*${String.fromCharCode(97 + k)},*${String.fromCharCode(97 + k)},*${String.fromCharCode(97 + k)},*${String.fromCharCode(97 + k)},*${String.fromCharCode(97 + k)}]`);
    const r = await scan({ 'pnpm-lock.yaml': `${bomb.join('\n')}\n` });
    expect(r.problems).toHaveLength(1);
  });
});

describe('pnpm 大输入', () => {
  it('5,000 个组件的 9.x 锁文件（走快速 YAML 读取器）', async () => {
    const lines = ["lockfileVersion: '9.0'", 'importers:', '  .:', '    dependencies:', '      p0:', "        specifier: '1'", '        version: 1.0.0', 'packages:'];
    for (let k = 0; k < 5000; k++) lines.push(`  p${k}@1.0.0:`, '    resolution: {integrity: sha512-x}');
    lines.push('snapshots:');
    for (let k = 0; k < 5000; k++) lines.push(`  p${k}@1.0.0:`, '    dependencies:', ...[1, 2, 3].map((d) => `      p${(k * 7 + d) % 5000}: 1.0.0`));
    const r = await scan({ 'pnpm-lock.yaml': `${lines.join('\n')}\n` });
    expect(r.targets[0].components).toHaveLength(5000);
    expect(r.targets[0].components.every((c) => c.scope === 'runtime')).toBe(true);
  });
});
