import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { parseMixExsDeps, parseMixLock } from '../../../../server/engine/extractors/hex/mix-lock.ts';
import { readTerm, tokenize } from '../../../../server/engine/extractors/hex/elixir-terms.ts';
import { extractors } from '../../../../server/engine/extractors/hex/index.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { TRIVY } from '../../../support/golden.ts';
import { expectClaims } from './extractor.ts';
import { useTempScan } from '../../../support/temp-scan.ts';

const { scan } = useTempScan('cairn-hex-', extractors);

const LOCK = `%{
  # a comment
  "credo": {:hex, :credo, "1.7.0", "abc", [:mix], [{:bunt, "~> 0.2.1", [hex: :bunt, repo: "hexpm", optional: false]}, {:jason, "~> 1.0", [hex: :jason, repo: "hexpm", optional: false]}], "hexpm", "def"},
  "bunt": {:hex, :bunt, "0.2.1", "abc", [:mix], [], "hexpm", "def"},
  "jason": {:hex, :jason, "1.4.0", "abc", [:mix], [{:decimal, "~> 2.0", [hex: :decimal, repo: "hexpm", optional: true]}], "hexpm", "def"},
  "plug": {:hex, :plug, "1.14.0", "abc", [:mix], [
    {:mime, "~> 2.0", [hex: :mime, repo: "hexpm", optional: false]},
    {:jason, "~> 1.0", [hex: :jason, repo: "hexpm", optional: false]}
  ], "hexpm", "def"},
  "mime": {:hex, :mime, "2.0.3", "abc", [:mix], [], "hexpm", "def"},
  "private_lib": {:hex, :private_lib, "0.1.0", "abc", [:mix], [], "hexpm:acme", "def"},
  "renamed": {:hex, :real_pkg, "3.0.0", "abc", [:rebar3], [], "hexpm"},
  "from_git": {:git, "https://github.com/o/from_git.git", "0123abc", [branch: "main"]},
  "legacy": {:hex, :legacy, "0.9.0", "abc"},
}
`;

const MIX_EXS = `defmodule MyApp.MixProject do
  use Mix.Project

  def project do
    [app: :my_app, version: "0.1.0", elixir: "~> 1.14", deps: deps()]
  end

  # deps
  defp deps do
    [
      {:plug, "~> 1.14"},
      {:credo, "~> 1.7", only: [:dev, :test], runtime: false},
      {:private_lib, "~> 0.1", organization: "acme"},
      {:renamed, hex: :real_pkg},
      {:from_git, git: "https://github.com/o/from_git.git", branch: "main"},
      {:legacy, "~> 0.9", only: :prod}
    ]
  end
end
`;

describe('hex mix.lock', () => {
  it('matches mix.lock only', () => {
    expectClaims(extractors[0]!, ['apps/web/mix.lock'], ['mix.exs']);
  });

  it('reads the trivy fixture with one-line locations and edges from the deps lists', () => {
    const t = parseMixLock(readFileSync(path.join(TRIVY, 'repo/mixlock/mix.lock'), 'utf8'), 'mix.lock');
    expect(t.components).toHaveLength(10);
    const phoenix = t.components.find((c) => c.name === 'phoenix')!;
    expect(phoenix.purl).toBe('pkg:hex/phoenix@1.6.13');
    expect(phoenix.locations).toEqual([{ file: 'mix.lock', startLine: 4, endLine: 4 }]);
    // plug_cowboy is optional and not locked: no edge to it.
    expect(phoenix.dependsOn).toEqual(['castore', 'jason', 'phoenix_pubsub', 'phoenix_view', 'plug', 'plug_crypto', 'telemetry'].map((n) => t.components.find((c) => c.name === n)!.purl));
  });

  it('hex packages with organisation, renamed apps, multi-line entries; git deps left out', () => {
    const t = parseMixLock(LOCK, 'mix.lock');
    const byName = new Map(t.components.map((c) => [c.name, c]));
    expect([...byName.keys()]).toEqual(['credo', 'bunt', 'jason', 'plug', 'mime', 'private_lib', 'real_pkg', 'legacy']);
    expect(byName.get('private_lib')!.purl).toBe('pkg:hex/acme/private_lib@0.1.0');
    expect(byName.get('real_pkg')!.purl).toBe('pkg:hex/real_pkg@3.0.0');
    expect(byName.get('plug')!.locations).toEqual([{ file: 'mix.lock', startLine: 6, endLine: 9 }]);
    expect(byName.get('plug')!.dependsOn).toEqual(['pkg:hex/mime@2.0.3', 'pkg:hex/jason@1.4.0']);
    expect(byName.get('credo')!.dependsOn).toEqual(['pkg:hex/bunt@0.2.1', 'pkg:hex/jason@1.4.0']);
  });

  it('reads declared deps and dev/test-only envs from mix.exs', () => {
    const parsed = parseMixExsDeps(MIX_EXS)!;
    expect(parsed.project).toEqual({ app: 'my_app', version: '0.1.0' });
    expect(parsed.deps).toEqual([
      { app: 'plug', devOnly: false },
      { app: 'credo', devOnly: true },
      { app: 'private_lib', devOnly: false },
      { app: 'renamed', devOnly: false },
      { app: 'from_git', devOnly: false },
      { app: 'legacy', devOnly: false },
    ]);
    expect(parseMixExsDeps('defmodule X do\nend\n')).toBeUndefined();
  });

  it('with a sibling mix.exs: direct deps, development scope for what only dev/test deps bring', async () => {
    const result = await scan({ 'mix.lock': LOCK, 'mix.exs': MIX_EXS });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t.project).toEqual({ purl: 'pkg:hex/my_app@0.1.0', name: 'my_app', version: '0.1.0' });
    const byName = new Map(t.components.map((c) => [c.name, c]));
    expect(byName.get('credo')!.scope).toBe('development');
    expect(byName.get('credo')!.direct).toBe(true);
    expect(byName.get('bunt')!.scope).toBe('development');
    expect(byName.get('jason')!.scope).toBe('runtime'); // plug needs it at runtime too
    expect(byName.get('mime')!.direct).toBe(false);
    expect(t.roots.sort()).toEqual(['pkg:hex/acme/private_lib@0.1.0', 'pkg:hex/credo@1.7.0', 'pkg:hex/legacy@0.9.0', 'pkg:hex/plug@1.14.0', 'pkg:hex/real_pkg@3.0.0']);
  });

  it('umbrella projects: deps of apps/*/mix.exs count as declared', async () => {
    const result = await scan({
      'mix.lock': LOCK,
      'mix.exs': 'defmodule U.MixProject do\n  def project, do: [apps_path: "apps", deps: deps()]\n  defp deps, do: []\nend\n',
      'apps/web/mix.exs': 'defmodule Web do\n  defp deps do\n    [{:core, in_umbrella: true}, {:jason, "~> 1.4"}, {:credo, "~> 1.7", only: :dev}]\n  end\nend\n',
    });
    expect(result.problems).toEqual([]);
    const byName = new Map(result.targets[0]!.components.map((c) => [c.name, c]));
    expect(byName.get('jason')!.direct).toBe(true);
    expect(byName.get('credo')!.scope).toBe('development');
    expect(byName.get('bunt')!.scope).toBe('development');
    expect(byName.get('jason')!.scope).toBe('runtime');
  });

  it('without mix.exs, entries nothing depends on are the direct ones', async () => {
    const result = await scanTree(path.join(TRIVY, 'repo/mixlock'), { extractors });
    const direct = result.targets[0]!.components.filter((c) => c.direct).map((c) => c.name).sort();
    expect(direct).toEqual(['phoenix']);
    expect(result.targets[0]!.roots).toEqual(['pkg:hex/phoenix@1.6.13']);
  });

  it('tokenizer and reader', () => {
    expect(readTerm(tokenize('%{"a" => [x: 1, y: :"q q"], b: {true, nil}}'))).toMatchObject({ t: 'map', entries: [{ key: { v: 'a' } }, { key: { v: 'b' } }] });
    expect(tokenize('"a\\"b": :c').map((t) => [t.kind, t.value])).toEqual([['kw', 'a"b'], ['atom', 'c']]);
  });

  it('empty input gives an empty target; malformed input throws ExtractError with the line', () => {
    expect(parseMixLock('', 'mix.lock').components).toEqual([]);
    expect(parseMixLock('%{}\n', 'mix.lock').components).toEqual([]);
    for (const bad of ['%{', '%{"a": {:hex, :a, "1.0"}', '[1, 2]', '%{"a" {:hex}}', '%{"a": {:hex, :a, "1.0}}', '%{"a": @}', '%{} extra', '{'.repeat(5000)]) {
      expect(() => parseMixLock(bad, 'mix.lock'), bad).toThrow(ExtractError);
    }
    expect(() => parseMixLock('%{\n  "a": {:hex, :a, "1.0"},\n  "b": {:hex :b}\n}', 'mix.lock')).toThrow(/第 3 行/);
  });

  it('reads 5,000 entries quickly', () => {
    const lines = ['%{'];
    for (let i = 0; i < 5000; i++) lines.push(`  "p${i}": {:hex, :p${i}, "1.0.${i}", "abc", [:mix], [{:p${(i + 1) % 5000}, "~> 1.0", [hex: :p${(i + 1) % 5000}, repo: "hexpm", optional: false]}], "hexpm", "def"},`);
    lines.push('}');
    const t = parseMixLock(lines.join('\n'), 'mix.lock');
    expect(t.components).toHaveLength(5000);
    expect(t.components[0]!.dependsOn).toEqual(['pkg:hex/p1@1.0.1']);
  });
});
