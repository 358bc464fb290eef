import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { extractors } from '../../../../server/engine/extractors/luarocks/index.ts';
import { parseRockDependency, parseRockspec } from '../../../../server/engine/extractors/luarocks/rockspec.ts';
import { evaluateLua } from '../../../../server/engine/extractors/luarocks/lua-table.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/luarocks');
const extractor = extractors[0]!;

describe('LuaRocks rockspec', () => {
  it('claims rockspecs only', () => {
    expectClaims(extractor, ['kong-pgmoon-1.16.2-1.rockspec', 'rockspecs/x-scm-1.rockspec'], ['rockspec', 'x.rockspec.bak', 'config.lua']);
  });

  it('reads kong-pgmoon: the rock is the project, lpeg its one dependency (lua is the interpreter), commented-out ones left out', async () => {
    const t = await extractFile(extractor, FIXTURES, 'kong-pgmoon-1.16.2-1.rockspec');
    expect(t.type).toBe('rockspec');
    expect(t.project).toEqual({ purl: 'pkg:luarocks/kong-pgmoon@1.16.2-1', name: 'kong-pgmoon', version: '1.16.2-1' });
    expect(t.components.map((c) => [c.purl, c.version, c.constraint, c.direct, c.scope, c.locations[0]!.startLine])).toEqual([
      ['pkg:luarocks/lpeg', '', undefined, true, 'runtime', 19],
    ]);
    expect(t.roots).toEqual(['pkg:luarocks/lpeg']);
  });

  it('reads luasyslog: package and version computed from locals and concatenation, a range constraint', async () => {
    const t = await extractFile(extractor, FIXTURES, 'luasyslog-2.0.1-1.rockspec');
    expect(t.project).toEqual({ purl: 'pkg:luarocks/luasyslog@2.0.1-1', name: 'luasyslog', version: '2.0.1-1' });
    expect(t.components.map((c) => [c.purl, c.constraint, c.locations[0]!.startLine])).toEqual([
      ['pkg:luarocks/lualogging', '>= 1.4.0, < 2.0.0', 26],
    ]);
  });

  it('an installed rockspec in a rocks tree is the installed rock, named lower case, with its licence', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'installed'), 'lib/luarocks/rocks-5.1/lpeg/1.0.2-1/lpeg-1.0.2-1.rockspec');
    expect(t.project).toBeNull();
    expect(t.components.map((c) => [c.purl, c.name, c.version, c.licenses, c.direct])).toEqual([
      ['pkg:luarocks/lpeg@1.0.2-1', 'lpeg', '1.0.2-1', ['MIT/X11'], true],
    ]);
  });

  it('dependency strings: bare names, exact pins, ranges and pessimistic constraints', () => {
    expect(parseRockDependency('lpeg')).toEqual({ name: 'lpeg', version: '' });
    expect(parseRockDependency('lua-cjson == 2.1.0')).toEqual({ name: 'lua-cjson', version: '2.1.0' });
    expect(parseRockDependency('luasocket 3.0rc1')).toEqual({ name: 'luasocket', version: '3.0rc1' });
    expect(parseRockDependency('penlight ~> 1.5')).toEqual({ name: 'penlight', version: '', constraint: '~> 1.5' });
    expect(parseRockDependency('LuaFileSystem >= 1.6,<2')).toEqual({ name: 'luafilesystem', version: '', constraint: '>= 1.6, <2' });
  });

  it('build and test dependencies are development scope; a runtime one of the same name stays runtime', () => {
    const t = parseRockspec('package = "app"\nversion = "scm-1"\ndependencies = { "busted" }\nbuild_dependencies = { "luarocks-build-rust-mlua" }\ntest_dependencies = { "busted", "luacov >= 0.15" }\n', 'app-scm-1.rockspec');
    expect(t.components.map((c) => [c.name, c.scope, c.constraint])).toEqual([
      ['busted', 'runtime', undefined], ['luarocks-build-rust-mlua', 'development', undefined], ['luacov', 'development', '>= 0.15'],
    ]);
  });

  it('the Lua subset: long strings, escapes, function values and calls are passed over', () => {
    const { globals } = evaluateLua('local v = [==[a]]b]==]\nx = "q\\"" .. v\nf = function(a) if a then return 1 elseif b then return 2 end end\nprint("hi")\ny = #"abc" + 1\n');
    expect(globals.get('x')).toBe('q"a]]b');
    expect(globals.get('f')).toBeUndefined();
    expect(globals.get('y')).toBe(4);
  });

  it('malformed rockspecs', () => {
    expect(() => parseRockspec('package = "x\nversion = "1"', 'x.rockspec')).toThrow(ExtractError);
    expect(() => parseRockspec('version = "1.0-1"\n', 'x.rockspec')).toThrow(/缺少 package/);
  });
});
