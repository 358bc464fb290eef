import { describe, expect, it } from 'vitest';
import { useTempScan } from '../../../support/temp-scan.ts';
import type { Component, Target } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/npm/index.ts';


const { scan } = useTempScan('cairn-npm-', extractors);

const byName = (t: Target) => new Map<string, Component>(t.components.map((c) => [`${c.name}@${c.version}`, c]));

describe('npm package-lock.json v1', () => {
  it('解析嵌套依赖、按 Node 规则解析 requires、dev 标记与别名', async () => {
    const lock = {
      name: 'app', version: '1.0.0', lockfileVersion: 1, requires: true,
      dependencies: {
        a: { version: '1.0.0', requires: { b: '^2.0.0', c: '^1.0.0' }, dependencies: { b: { version: '2.0.0' } } },
        b: { version: '1.0.0' },
        c: { version: '1.1.0', requires: { b: '^1.0.0' } },
        jest: { version: '29.0.0', dev: true, requires: { c: '^1.0.0' } },
        'string-width-cjs': { version: 'npm:string-width@4.2.3' },
        local: { version: 'file:../local' },
      },
    };
    const pkg = { name: 'app', version: '1.0.0', dependencies: { a: '^1', 'string-width-cjs': 'npm:string-width@^4', local: 'file:../local' }, devDependencies: { jest: '^29' } };
    const r = await scan({ 'package-lock.json': lock, 'package.json': pkg });
    expect(r.problems).toEqual([]);
    const t = r.targets.find((x) => x.file === 'package-lock.json')!;
    expect(t.type).toBe('npm');
    expect(t.project).toEqual({ name: 'app', version: '1.0.0', purl: 'pkg:npm/app@1.0.0' });
    const m = byName(t);
    expect([...m.keys()].sort()).toEqual(['a@1.0.0', 'b@1.0.0', 'b@2.0.0', 'c@1.1.0', 'jest@29.0.0', 'string-width@4.2.3']);
    expect(m.get('a@1.0.0')!.dependsOn).toEqual(['pkg:npm/b@2.0.0', 'pkg:npm/c@1.1.0']);
    expect(m.get('c@1.1.0')!.dependsOn).toEqual(['pkg:npm/b@1.0.0']);
    expect(m.get('a@1.0.0')!.direct).toBe(true);
    expect(m.get('c@1.1.0')!.direct).toBe(false);
    expect(m.get('jest@29.0.0')).toMatchObject({ direct: true, scope: 'development' });
    expect(m.get('c@1.1.0')!.scope).toBe('runtime');
    expect(t.roots).toEqual(['pkg:npm/a@1.0.0', 'pkg:npm/string-width@4.2.3', 'pkg:npm/jest@29.0.0']);
    expect(m.get('a@1.0.0')!.locations[0]).toMatchObject({ file: 'package-lock.json', startLine: 7, endLine: 18 });
  });
});

describe('npm package-lock.json v2/v3 与 npm-shrinkwrap.json', () => {
  const lock = {
    name: 'mono', version: '2.0.0', lockfileVersion: 3, requires: true,
    packages: {
      '': { name: 'mono', version: '2.0.0', workspaces: ['packages/*'], dependencies: { express: '^4' }, devDependencies: { typescript: '^5' } },
      'node_modules/express': { version: '4.18.2', license: 'MIT', dependencies: { debug: '2.6.9', ms: '^2' } },
      'node_modules/debug': { version: '2.6.9', dependencies: { ms: '2.0.0' } },
      'node_modules/debug/node_modules/ms': { version: '2.0.0' },
      'node_modules/ms': { version: '2.1.3', license: 'MIT' },
      'node_modules/typescript': { version: '5.4.0', dev: true, license: 'Apache-2.0' },
      'node_modules/@scope/lib': { resolved: 'packages/lib', link: true },
      'packages/lib': { name: '@scope/lib', version: '0.1.0', dependencies: { lodash: '^4' }, devDependencies: { vitest: '^1' } },
      'packages/lib/node_modules/lodash': { version: '4.17.21' },
      'node_modules/vitest': { version: '1.0.0', dev: true },
      'node_modules/opt': { version: '1.0.0', devOptional: true },
      'node_modules/@babel/core': { version: '7.24.0', dev: true, dependencies: { '@scope/lib': '*' } },
    },
  };

  it('按安装路径解析依赖，工作区是项目而不是组件', async () => {
    const r = await scan({ 'package-lock.json': lock });
    expect(r.problems).toEqual([]);
    const t = r.targets[0];
    expect(t.project?.purl).toBe('pkg:npm/mono@2.0.0');
    const m = byName(t);
    expect(m.has('@scope/lib@0.1.0')).toBe(false);
    expect(m.get('express@4.18.2')).toMatchObject({ direct: true, scope: 'runtime', licenses: ['MIT'], dependsOn: ['pkg:npm/debug@2.6.9', 'pkg:npm/ms@2.1.3'] });
    expect(m.get('debug@2.6.9')!.dependsOn).toEqual(['pkg:npm/ms@2.0.0']);
    expect(m.get('lodash@4.17.21')).toMatchObject({ direct: true, scope: 'runtime' });
    expect(m.get('typescript@5.4.0')).toMatchObject({ direct: true, scope: 'development' });
    expect(m.get('vitest@1.0.0')).toMatchObject({ direct: true, scope: 'development' });
    expect(m.get('opt@1.0.0')!.scope).toBe('runtime');
    expect(m.get('@babel/core@7.24.0')).toMatchObject({ purl: 'pkg:npm/%40babel/core@7.24.0', dependsOn: [] });
    expect(t.roots).toContain('pkg:npm/express@4.18.2');
    expect(t.roots.indexOf('pkg:npm/typescript@5.4.0')).toBeGreaterThan(t.roots.indexOf('pkg:npm/express@4.18.2'));
  });

  it('npm-shrinkwrap.json 与 lockfileVersion 2 同样解析', async () => {
    const r = await scan({ 'sub/npm-shrinkwrap.json': { ...lock, lockfileVersion: 2 } });
    expect(r.targets.map((t) => t.file)).toEqual(['sub/npm-shrinkwrap.json']);
    expect(r.targets[0].components.length).toBe(9);
  });

  it('同一 purl 出现在多个安装路径时合并位置', async () => {
    const r = await scan({ 'package-lock.json': { lockfileVersion: 3, packages: {
      '': { dependencies: { a: '1', b: '1' } },
      'node_modules/a': { version: '1.0.0', dependencies: { x: '1' } },
      'node_modules/a/node_modules/x': { version: '1.0.0' },
      'node_modules/b': { version: '1.0.0', dependencies: { x: '1' } },
      'node_modules/b/node_modules/x': { version: '1.0.0' },
    } } });
    const x = byName(r.targets[0]).get('x@1.0.0')!;
    expect(x.locations).toHaveLength(2);
    expect(r.targets[0].components).toHaveLength(3);
  });

  it('从 node_modules 读取缺失的许可证', async () => {
    const r = await scan({
      'package-lock.json': { lockfileVersion: 2, packages: { '': {}, 'node_modules/a': { version: '1.0.0' } } },
      'node_modules/a/package.json': { name: 'a', version: '1.0.0', license: { type: 'ISC' } },
    });
    expect(r.targets[0].components[0].licenses).toEqual(['ISC']);
  });
});

describe('只有 package.json 与 node_modules', () => {
  it('读取已安装的包（含作用域包与嵌套版本）', async () => {
    const r = await scan({
      'package.json': { name: 'app', version: '1.0.0', dependencies: { a: '^1', '@s/b': '^2' }, devDependencies: { d: '*' } },
      'node_modules/a/package.json': { name: 'a', version: '1.2.0', license: 'MIT', dependencies: { c: '^1' } },
      'node_modules/a/node_modules/c/package.json': { name: 'c', version: '1.0.0' },
      'node_modules/c/package.json': { name: 'c', version: '2.0.0' },
      'node_modules/@s/b/package.json': { name: '@s/b', version: '2.0.0', dependencies: { c: '^2' } },
      'node_modules/d/package.json': { name: 'd', version: '3.0.0' },
      'node_modules/.bin/x': '#!/bin/sh',
    });
    expect(r.problems).toEqual([]);
    const t = r.targets[0];
    expect(t.file).toBe('package.json');
    const m = byName(t);
    expect([...m.keys()].sort()).toEqual(['@s/b@2.0.0', 'a@1.2.0', 'c@1.0.0', 'c@2.0.0', 'd@3.0.0']);
    expect(m.get('a@1.2.0')).toMatchObject({ direct: true, scope: 'runtime', licenses: ['MIT'], dependsOn: ['pkg:npm/c@1.0.0'] });
    expect(m.get('@s/b@2.0.0')!.dependsOn).toEqual(['pkg:npm/c@2.0.0']);
    expect(m.get('d@3.0.0')).toMatchObject({ direct: true, scope: 'development' });
    expect(m.get('c@1.0.0')!.locations[0].file).toBe('node_modules/a/node_modules/c/package.json');
  });

  it('node_modules 中指向工作区的包不是组件', async () => {
    const r = await scan({
      'package.json': { name: 'mono', workspaces: ['packages/*'], dependencies: { a: '^1' } },
      'packages/ws/package.json': { name: 'ws', version: '0.0.1' },
      'node_modules/ws/package.json': { name: 'ws', version: '0.0.1' },
      'node_modules/a/package.json': { name: 'a', version: '1.0.0' },
    });
    expect(r.targets.map((t) => t.file)).toEqual(['package.json']);
    expect(r.targets[0].components.map((c) => c.purl)).toEqual(['pkg:npm/a@1.0.0']);
  });

  it('优先使用 node_modules/.package-lock.json', async () => {
    const r = await scan({
      'package.json': { name: 'app', dependencies: { a: '^1' } },
      'node_modules/.package-lock.json': { name: 'app', lockfileVersion: 3, packages: { 'node_modules/a': { version: '1.0.0', license: 'MIT' } } },
      'node_modules/a/package.json': { name: 'a', version: '1.0.0' },
    });
    const t = r.targets[0];
    expect(t.components.map((c) => c.purl)).toEqual(['pkg:npm/a@1.0.0']);
    expect(t.components[0].locations[0].file).toBe('node_modules/.package-lock.json');
  });

  it('本目录或上层有锁文件时不从 package.json 产出目标', async () => {
    const r = await scan({
      'package.json': { name: 'app', dependencies: { a: '^1' } },
      'yarn.lock': '',
      'node_modules/a/package.json': { name: 'a', version: '1.0.0' },
      'packages/x/package.json': { name: 'x', dependencies: { a: '^1' } },
      'other/package.json': { name: 'other', dependencies: { a: '^1' } },
    });
    expect(r.targets).toEqual([]);
  });

  it('没有锁文件也没有 node_modules：声明的依赖以空版本和声明的范围报告，固定的版本照用', async () => {
    const pkg = {
      name: 'web', version: '2.0.0',
      dependencies: { express: '^4.18.2', lodash: '4.17.21', 'my-lib': 'workspace:*', react: 'latest', str: 'npm:string-width@^4' },
      devDependencies: { jest: '~29.7.0', express: '^4.18.2' },
      peerDependencies: { vue: '' },
    };
    const r = await scan({ 'web/package.json': pkg });
    expect(r.problems).toEqual([]);
    const t = r.targets[0]!;
    expect(t).toMatchObject({ file: 'web/package.json', type: 'npm', project: { name: 'web', version: '2.0.0' } });
    expect(t.components.map((c) => [c.purl, c.version, c.constraint, c.scope, c.direct])).toEqual([
      ['pkg:npm/express', '', '^4.18.2', 'runtime', true],
      ['pkg:npm/lodash@4.17.21', '4.17.21', undefined, 'runtime', true],
      ['pkg:npm/react', '', 'latest', 'runtime', true],
      ['pkg:npm/string-width', '', '^4', 'runtime', true],
      ['pkg:npm/vue', '', '*', 'runtime', true],
      ['pkg:npm/jest', '', '~29.7.0', 'development', true],
    ]);
    expect(t.components[0]!.locations).toEqual([{ file: 'web/package.json', startLine: 5, endLine: 5 }]);
  });
});

describe('npm 读不了的条目', () => {
  it('v3：没有 version 或不是对象的条目跳过并报告行号，其余照常读取', async () => {
    const lock = {
      name: 'app', lockfileVersion: 3, requires: true, futureField: { any: 1 },
      packages: {
        '': { name: 'app', dependencies: { a: '^1.0.0', b: '^2.0.0', c: '^3.0.0' } },
        'node_modules/a': { version: '1.0.1', resolved: 'https://registry.npmjs.org/a/-/a-1.0.1.tgz', signatures: ['x'] },
        'node_modules/b': { resolved: 'https://registry.npmjs.org/b/-/b-2.0.0.tgz' },
        'node_modules/c': 'broken',
      },
    };
    const r = await scan({ 'package-lock.json': JSON.stringify(lock, null, 2) });
    expect(r.problems.map((p) => p.message)).toEqual([
      'package-lock.json 第 24 行：条目“node_modules/b”没有 version，已跳过',
      'package-lock.json：条目“node_modules/c”不是对象，已跳过',
    ]);
    expect(r.targets[0]!.components.map((c) => [c.purl, c.direct])).toEqual([['pkg:npm/a@1.0.1', true]]);
  });

  it('v1：没有 version 的依赖跳过并报告', async () => {
    const lock = { name: 'app', lockfileVersion: 1, dependencies: { a: { version: '1.0.0' }, b: { requires: { a: '1' } } } };
    const r = await scan({ 'package-lock.json': JSON.stringify(lock, null, 2) });
    expect(r.problems.map((p) => p.message)).toEqual(['package-lock.json 第 8 行：条目“node_modules/b”没有 version，已跳过']);
    expect(r.targets[0]!.components.map((c) => c.purl)).toEqual(['pkg:npm/a@1.0.0']);
  });
});

describe('npm 格式错误的输入', () => {
  it.each([
    ['{ "lockfileVersion": 2, ', '不是有效的 JSON'],
    ['[1, 2]', '顶层不是对象'],
    ['{"lockfileVersion": 1, "dependencies": "x"}', 'dependencies 不是对象'],
    ['{"a": "\\u12"}', '不是有效的 JSON'],
  ])('%s 报告中文问题且不中断扫描', async (body, message) => {
    const r = await scan({ 'package-lock.json': body, 'ok/package-lock.json': { lockfileVersion: 3, packages: { 'node_modules/a': { version: '1.0.0' } } } });
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0].file).toBe('package-lock.json');
    expect(r.problems[0].message).toContain(message);
    expect(r.targets.map((t) => t.file)).toEqual(['ok/package-lock.json']);
  });

  it('损坏的 package.json（有 node_modules 时）报告问题', async () => {
    const r = await scan({ 'package.json': '{oops', 'node_modules/a/package.json': '{}' });
    expect(r.problems[0].message).toContain('不是有效的 package.json');
  });
});

describe('npm 大输入', () => {
  it('5,000 个组件的 lockfileVersion 3', async () => {
    const packages: Record<string, unknown> = { '': { name: 'big', dependencies: { p0: '1' } } };
    for (let k = 0; k < 5000; k++) {
      packages[`node_modules/p${k}`] = { version: '1.0.0', license: 'MIT', dependencies: Object.fromEntries([1, 2, 3].map((d) => [`p${(k * 7 + d) % 5000}`, '1'])) };
    }
    const r = await scan({ 'package-lock.json': { name: 'big', lockfileVersion: 3, packages } });
    expect(r.targets[0].components).toHaveLength(5000);
    expect(r.targets[0].components.every((c) => c.scope === 'runtime' && c.dependsOn.length > 0)).toBe(true);
  });
});
