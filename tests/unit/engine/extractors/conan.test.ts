import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { conanPurl, parseConanLock, parseConanRef } from '../../../../server/engine/extractors/conan/conan-lock.ts';
import { extractors } from '../../../../server/engine/extractors/conan/index.ts';
import { TRIVY } from '../../../support/golden.ts';
import { expectClaims } from './extractor.ts';

const V1_BUILD = JSON.stringify({
  graph_lock: {
    nodes: {
      '0': { ref: 'myapp/1.0@me/stable', path: '../conanfile.py', requires: ['1'], build_requires: ['3'] },
      '1': { ref: 'libcurl/7.80.0@_/_#rrev123:pid#prev', requires: ['2'], context: 'host' },
      '2': { ref: 'openssl/3.0.0', context: 'host' },
      '3': { ref: 'cmake/3.22.0', requires: ['4'], context: 'build' },
      '4': { ref: 'openssl/1.1.1m', context: 'build' },
      '5': { ref: 'not-a-ref' },
    },
    revisions_enabled: true,
  },
  version: '0.4',
}, null, 1);

const V2 = `{
    "version": "0.5",
    "requires": [
        "zlib/1.2.13#97d5730b529b4224045fe7090592d4c1%1692672717.049",
        "openssl/3.1.2@myuser/testing#rev%1"
    ],
    "build_requires": [
        "cmake/3.27.0#rev%2"
    ],
    "python_requires": [],
    "config_requires": []
}`;

describe('conan conan.lock', () => {
  it('matches conan.lock only', () => {
    expectClaims(extractors[0]!, ['build/conan.lock'], ['conanfile.txt']);
  });

  it('reads the v1 trivy fixture: node lines, edges from requires, direct from node 0', () => {
    const t = parseConanLock(readFileSync(path.join(TRIVY, 'repo/conan/conan.lock'), 'utf8'), 'conan.lock');
    const poco = t.components.find((c) => c.name === 'poco')!;
    expect(poco).toMatchObject({ purl: 'pkg:conan/poco@1.9.4', version: '1.9.4', direct: true, locations: [{ file: 'conan.lock', startLine: 12, endLine: 25 }] });
    expect(poco.dependsOn).toEqual(['pkg:conan/pcre@8.43', 'pkg:conan/zlib@1.2.12', 'pkg:conan/expat@2.4.8', 'pkg:conan/sqlite3@3.39.2', 'pkg:conan/openssl@1.1.1q']);
    expect(t.components).toHaveLength(7);
    expect(t.components.filter((c) => c.direct)).toHaveLength(1);
    expect(t.roots).toEqual(['pkg:conan/poco@1.9.4']);
    expect(t.project).toBeNull();
  });

  it('v1: project from the root node, user/channel in the purl, build requirements as development', () => {
    const t = parseConanLock(V1_BUILD, 'conan.lock');
    expect(t.project).toEqual({ purl: 'pkg:conan/me/myapp@1.0?channel=stable', name: 'myapp', version: '1.0' });
    const byPurl = new Map(t.components.map((c) => [c.purl, c]));
    expect([...byPurl.keys()]).toEqual(['pkg:conan/libcurl@7.80.0', 'pkg:conan/openssl@3.0.0', 'pkg:conan/cmake@3.22.0', 'pkg:conan/openssl@1.1.1m']);
    expect(byPurl.get('pkg:conan/libcurl@7.80.0')!.scope).toBe('runtime');
    expect(byPurl.get('pkg:conan/openssl@3.0.0')!.scope).toBe('runtime');
    expect(byPurl.get('pkg:conan/cmake@3.22.0')).toMatchObject({ scope: 'development', direct: true, dependsOn: ['pkg:conan/openssl@1.1.1m'] });
    expect(byPurl.get('pkg:conan/openssl@1.1.1m')!.scope).toBe('development');
    expect(t.roots).toEqual(['pkg:conan/libcurl@7.80.0', 'pkg:conan/cmake@3.22.0']);
  });

  it('v2: requires, build_requires with revisions stripped, no edges', () => {
    const t = parseConanLock(V2, 'conan.lock');
    expect(t.components.map((c) => [c.purl, c.scope, c.locations[0]!.startLine])).toEqual([
      ['pkg:conan/zlib@1.2.13', 'runtime', 4],
      ['pkg:conan/myuser/openssl@3.1.2?channel=testing', 'runtime', 5],
      ['pkg:conan/cmake@3.27.0', 'development', 8],
    ]);
  });

  it('references', () => {
    expect(parseConanRef('pkga/0.1@user/testing')).toEqual({ name: 'pkga', version: '0.1', user: 'user', channel: 'testing' });
    expect(parseConanRef('pkgd/0.1.0#7dcb50c43a5a50d984c2e8fa5898bf18')).toEqual({ name: 'pkgd', version: '0.1.0', user: undefined, channel: undefined });
    expect(parseConanRef('nope')).toBeUndefined();
    expect(conanPurl({ name: 'a', version: '1', user: 'u' })).toBe('pkg:conan/a@1');
  });

  it('malformed input throws ExtractError in Chinese', () => {
    for (const bad of ['', '{', '[]', '{"graph_lock": {"nodes": []}}', '{"something": 1}', '{"graph_lock": {"nodes": {"0": {}}}']) {
      expect(() => parseConanLock(bad, 'conan.lock'), bad).toThrow(ExtractError);
    }
    expect(parseConanLock('{"graph_lock": {"nodes": {}}}', 'conan.lock').components).toEqual([]);
  });

  it('passes over what Conan cannot read, lists it with its line and keeps the rest', () => {
    expect(parseConanLock('{"version": "0.5", "requires": "zlib/1"}', 'conan.lock').problems).toEqual(['conan.lock 第 1 行：requires 不是数组，已跳过']);
    const v2 = parseConanLock('{\n "version": "0.5",\n "requires": [\n  "zlib/1.2.13#abc%1",\n  "???",\n  7\n ],\n "config_requires": []\n}', 'conan.lock');
    expect(v2.components.map((c) => c.purl)).toEqual(['pkg:conan/zlib@1.2.13']);
    expect(v2.problems).toEqual(['conan.lock 第 5 行：requires 中的条目“???”不是“名称/版本”形式，已跳过', 'conan.lock 第 6 行：requires 中的条目不是“名称/版本”形式，已跳过']);
    const v1 = parseConanLock(JSON.stringify({ graph_lock: { nodes: { 0: { path: 'conanfile.txt', requires: ['1', '2'] }, 1: { ref: 'zlib/1.2.13' }, 2: { ref: 'broken' }, 3: 5 } }, version: '0.4' }, null, 1), 'conan.lock');
    expect(v1.components.map((c) => c.purl)).toEqual(['pkg:conan/zlib@1.2.13']);
    expect(v1.problems).toEqual(['conan.lock 第 14 行：节点“2”的 ref“broken”不是“名称/版本”形式，已跳过', 'conan.lock 第 17 行：节点“3”不是对象，已跳过']);
  });

  it('reads 5,000 nodes quickly', () => {
    const nodes: Record<string, unknown> = { '0': { requires: ['1'] } };
    for (let i = 1; i <= 5000; i++) nodes[String(i)] = { ref: `p${i}/1.0.${i}`, requires: i < 5000 ? [String(i + 1)] : [], context: 'host' };
    const text = JSON.stringify({ graph_lock: { nodes }, version: '0.4' }, null, 1);
    const t = parseConanLock(text, 'conan.lock');
    expect(t.components).toHaveLength(5000);
    expect(t.components.every((c) => c.scope === 'runtime')).toBe(true);
  });
});
