import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/hex/index.ts';
import { parseRebarLock, readErlangTerms, rebarExtractor } from '../../../../server/engine/extractors/hex/rebar-lock.ts';
import { ExtractError } from '../../../../server/engine/model.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/hex');
const summary = (t: Target) => t.components.map((c) => [c.purl, c.name, c.version, c.direct, c.scope]);

describe('rebar.lock', () => {
  it('matches rebar.lock only', () => {
    expectClaims(rebarExtractor, ['rebar.lock', 'apps/x/rebar.lock'], ['rebar.config', 'xrebar.lock', 'rebar.lock.bak']);
  });

  it('reads syft\'s versioned rebar.lock: Hex and git locks, level 0 direct, pkg_hash ignored', async () => {
    const t = await extractFile(rebarExtractor, path.join(FIXTURES, 'syft-rebar-2'), 'rebar.lock');
    expect(t.problems).toBeUndefined();
    expect(t).toMatchObject({ type: 'rebar', ecosystem: 'hex', project: null });
    expect(summary(t)).toEqual([
      ['pkg:hex/bcrypt@1.1.5', 'bcrypt', '1.1.5', true, 'runtime'],
      ['pkg:hex/bson@14308ab927cfa69324742c3de720578094e0bb19', 'bson', '14308ab927cfa69324742c3de720578094e0bb19', false, 'runtime'],
      ['pkg:hex/certifi@2.9.0', 'certifi', '2.9.0', false, 'runtime'],
      ['pkg:hex/stdout_formatter@0.2.3', 'stdout_formatter', '0.2.3', true, 'runtime'],
      ['pkg:hex/swc@4835239dca5a5f4ac7202dd94d7effcaa617d575', 'swc', '4835239dca5a5f4ac7202dd94d7effcaa617d575', true, 'runtime'],
      ['pkg:hex/syslog@1.1.0', 'syslog', '1.1.0', true, 'runtime'],
      ['pkg:hex/unicode_util_compat@0.7.0', 'unicode_util_compat', '0.7.0', false, 'runtime'],
      ['pkg:hex/vernemq_dev@6d622aa8c901ae7777433aef2bd049e380c474a6', 'vernemq_dev', '6d622aa8c901ae7777433aef2bd049e380c474a6', true, 'runtime'],
    ]);
    expect(t.roots).toEqual(t.components.filter((c) => c.direct).map((c) => c.purl));
    expect(t.components.find((c) => c.name === 'bson')!.locations).toEqual([{ file: 'rebar.lock', startLine: 3, endLine: 6 }]);
  });

  it('reads the old bare-list layout (a git lock of rebar3 3.0–3.4)', async () => {
    const result = await scanTree(path.join(FIXTURES, 'eon-old-format'), { extractors });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.type])).toEqual([['rebar.lock', 'rebar']]);
    expect(summary(result.targets[0]!)).toEqual([['pkg:hex/stdlib2@e96e4a14ddf26df92ad83e66a853e9b979990a66', 'stdlib2', 'e96e4a14ddf26df92ad83e66a853e9b979990a66', true, 'runtime']]);
  });

  it('renamed Hex packages take the package name; tags, branches, comments; unreadable locks are told', () => {
    const text = `%% rebar3 lock
[{<<"uuid">>,{pkg,<<"uuid_erl">>,<<"2.0.1">>},0},
 {<<"cowboy">>,{git,"https://github.com/ninenines/cowboy.git",{tag,"2.9.0"}},1},
 {<<"broken">>,{svn,"x"},0},
 {<<"Quoted">>,{pkg,<<"Quoted">>,<<"1.0.0">>},'0'}].
`;
    const t = parseRebarLock(text, 'rebar.lock');
    expect(summary(t)).toEqual([
      ['pkg:hex/uuid_erl@2.0.1', 'uuid_erl', '2.0.1', true, 'runtime'],
      ['pkg:hex/cowboy@2.9.0', 'cowboy', '2.9.0', false, 'runtime'],
      ['pkg:hex/quoted@1.0.0', 'Quoted', '1.0.0', false, 'runtime'],
    ]);
    expect(t.problems).toEqual(['rebar.lock 第 4 行：锁定条目“broken”不是 {<<"名称">>, {pkg|git, ...}, 层级} 形式，已跳过']);
  });

  it('an empty lock has no components; broken syntax is an ExtractError with the line', () => {
    expect(parseRebarLock('', 'rebar.lock').components).toEqual([]);
    expect(parseRebarLock('[].\n', 'rebar.lock').components).toEqual([]);
    expect(() => parseRebarLock('[{<<"a">>,{pkg,<<"a">>,<<"1">>},0}\n', 'rebar.lock')).toThrow(ExtractError);
    expect(() => parseRebarLock('{"1.2.0",\n[{<<"a">>,{pkg,<<"a">>,<<"1">>},0}]}\n', 'rebar.lock')).toThrow(/第 3 行/);
    expect(() => parseRebarLock('{"1.2.0", foo}.', 'rebar.lock')).toThrow(ExtractError);
    expect(() => readErlangTerms('['.repeat(100))).toThrow(/嵌套层级过深/);
  });
});
