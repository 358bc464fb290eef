import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempScan } from '../../../support/temp-scan.ts';
import { expectClaims, extractFile } from './extractor.ts';
import type { Target } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { cargoLockExtractor, extractors, parseCargoLock } from '../../../../server/engine/extractors/cargo/index.ts';
import { TRIVY } from '../../../support/golden.ts';

const { scan } = useTempScan('cairn-cargo-', extractors);
const by = (t: Target, name: string, version?: string) => t.components.find((c) => c.name === name && (!version || c.version === version))!;

describe('Cargo.lock', () => {
  it('matches Cargo.lock only', () => {
    expectClaims(cargoLockExtractor, ['Cargo.lock', 'crates/x/Cargo.lock'], ['Cargo.toml', 'xCargo.lock']);
  });

  it('reads the trivy v4 fixture: root package, "name version" references, dev-only part, lines', async () => {
    const result = await scanTree(path.join(TRIVY, 'repo/cargo'), { extractors });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t).toMatchObject({ file: 'Cargo.lock', type: 'cargo', ecosystem: 'cargo', project: { purl: 'pkg:cargo/app@0.1.0', name: 'app', version: '0.1.0' } });
    expect(t.roots).toEqual(['pkg:cargo/memchr@1.0.2', 'pkg:cargo/regex@1.7.3']);
    expect(t.components).toHaveLength(9);
    expect(by(t, 'memchr', '1.0.2')).toMatchObject({ direct: true, scope: 'runtime', dependsOn: ['pkg:cargo/libc@0.2.171'], locations: [{ file: 'Cargo.lock', startLine: 29, endLine: 36 }] });
    expect(by(t, 'regex').dependsOn).toEqual(['pkg:cargo/aho-corasick@0.7.20', 'pkg:cargo/memchr@2.7.4', 'pkg:cargo/regex-syntax@0.6.29']);
    expect(by(t, 'memchr', '2.7.4')).toMatchObject({ direct: false, scope: 'runtime' });
    // winapi is a dev-dependency in Cargo.toml: it and what only it pulls in are development.
    expect(by(t, 'winapi')).toMatchObject({ direct: true, scope: 'development' });
    expect(by(t, 'winapi-i686-pc-windows-gnu')).toMatchObject({ direct: false, scope: 'development' });
    expect(t.components.some((c) => c.name === 'app')).toBe(false);
  });

  it('reads a v1 lockfile with full "name version (source)" references and [metadata]', async () => {
    const result = await scanTree(path.join(TRIVY, 'repo/trivy-ci-test'), { extractors });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t.components).toHaveLength(73); // 74 packages, one of them the local `normal`
    expect(t.project?.name).toBe('normal');
    expect(by(t, 'ammonia')).toMatchObject({ version: '1.9.0', purl: 'pkg:cargo/ammonia@1.9.0' });
    expect(by(t, 'ammonia').dependsOn).toContain('pkg:cargo/html5ever@0.23.0');
    expect(by(t, 'bitflags', '0.7.0')).toBeDefined();
    expect(by(t, 'bitflags', '1.0.4')).toBeDefined();
  });

  it('v3 workspace: members by glob, renamed dependencies, build-dependencies are development', async () => {
    const lock = `version = 3

[[package]]
name = "cli"
version = "0.2.0"
dependencies = [
 "core",
 "log 0.4.20",
 "cc",
]

[[package]]
name = "core"
version = "0.1.0"
dependencies = [
 "serde",
 "log 0.3.9",
 "pretty_assertions",
]

[[package]]
name = "log"
version = "0.3.9"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "log"
version = "0.4.20"
source = "sparse+https://index.crates.io/"

[[package]]
name = "serde"
version = "1.0.190"
source = "git+https://github.com/serde-rs/serde?rev=abc#abcdef"

[[package]]
name = "cc"
version = "1.0.83"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "pretty_assertions"
version = "1.4.0"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "log 0.4.20",
]
`;
    const result = await scan({
      'Cargo.lock': lock,
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n[workspace.dependencies]\nasserts = { package = "pretty_assertions", version = "1" }\n',
      'crates/cli/Cargo.toml': '[package]\nname = "cli"\nversion = "0.2.0"\n[dependencies]\ncore = { path = "../core" }\nlogging = { package = "log", version = "0.4" }\n[build-dependencies]\ncc = "1"\n',
      'crates/core/Cargo.toml': '[package]\nname = "core"\nversion = "0.1.0"\n[dependencies]\nserde = { git = "https://github.com/serde-rs/serde" }\nlog = "0.3"\n[dev-dependencies]\nasserts = { workspace = true }\n',
    });
    expect(result.problems).toEqual([]);
    const t = result.targets[0]!;
    expect(t.project).toBeNull(); // a virtual workspace
    expect(t.components.map((c) => `${c.name}@${c.version}:${c.scope}:${c.direct}`).sort()).toEqual([
      'cc@1.0.83:development:true',
      'log@0.3.9:runtime:true',
      'log@0.4.20:runtime:true',
      'pretty_assertions@1.4.0:development:true',
      'serde@1.0.190:runtime:true',
    ]);
    expect(t.roots.sort()).toEqual(['pkg:cargo/log@0.3.9', 'pkg:cargo/log@0.4.20', 'pkg:cargo/serde@1.0.190']);
    expect(by(t, 'pretty_assertions').dependsOn).toEqual(['pkg:cargo/log@0.4.20']);
  });

  it('without Cargo.toml: the only local package nothing depends on is the project', async () => {
    const result = await scan({
      'sub/Cargo.lock': 'version = 4\n\n[[package]]\nname = "tool"\nversion = "1.0.0"\ndependencies = ["anyhow"]\n\n[[package]]\nname = "anyhow"\nversion = "1.0.75"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
    });
    const t = result.targets[0]!;
    expect(t.file).toBe('sub/Cargo.lock');
    expect(t.project).toEqual({ purl: 'pkg:cargo/tool@1.0.0', name: 'tool', version: '1.0.0' });
    expect(t.roots).toEqual(['pkg:cargo/anyhow@1.0.75']);
    expect(by(t, 'anyhow')).toMatchObject({ direct: true, scope: 'runtime', locations: [{ file: 'sub/Cargo.lock', startLine: 8, endLine: 11 }] });
  });

  it('an empty lockfile has no components', () => {
    expect(parseCargoLock('# nothing yet\nversion = 3\n', 'Cargo.lock')).toEqual([]);
  });

  it('reports malformed lockfiles in Chinese and carries on', async () => {
    const result = await scan({
      'a/Cargo.lock': '[[package]\nname = "x"',
      'b/Cargo.lock': '[[package]]\nname = "x"\n',
      'c/Cargo.lock': 'package = "oops"\n',
      'd/Cargo.lock': '[[package]]\nname = "ok"\nversion = "1.0.0"\nsource = "registry+https://github.com/rust-lang/crates.io-index"\n',
    });
    expect(result.problems.map((p) => p.file)).toEqual(['a/Cargo.lock', 'b/Cargo.lock', 'c/Cargo.lock']);
    expect(result.problems[0]!.message).toMatch(/无法解析 a\/Cargo.lock：不是有效的 TOML/);
    // A [[package]] without a version is passed over (as a problem naming its line); the rest of the lock is read.
    expect(result.problems[1]!.message).toBe('b/Cargo.lock 第 1 行：[[package]]“x”缺少 name 或 version，已跳过');
    expect(result.targets.map((t) => t.file)).toEqual(['b/Cargo.lock', 'd/Cargo.lock']);
  });
});

describe('byte-order marks and CRLF line ends', () => {
  it('Cargo.lock', () => {
    const pkgs = parseCargoLock('\uFEFFversion = 3\r\n\r\n[[package]]\r\nname = "a"\r\nversion = "1.0.0"\r\nsource = "registry+https://github.com/rust-lang/crates.io-index"\r\n', 'Cargo.lock');
    expect(pkgs).toMatchObject([{ name: 'a', version: '1.0.0', startLine: 3, endLine: 6 }]);
  });
});

describe('a real Cargo.lock with what Cargo passes over', () => {
  it('skips the package without a version and the unknown table, lists them with their lines, keeps the rest', async () => {
    const root = path.join(import.meta.dirname, '../../../fixtures/public/lockfiles/cargo');
    const t = await extractFile(cargoLockExtractor, root, 'Cargo.lock');
    expect(t.problems).toEqual([
      'Cargo.lock 第 56 行：Cargo 不认识的“extra-metadata”，已跳过',
      'Cargo.lock 第 23 行：[[package]]“quote”缺少 name 或 version，已跳过',
    ]);
    expect(t.components.map((c) => c.purl).sort()).toEqual(['pkg:cargo/proc-macro2@1.0.47', 'pkg:cargo/syn@1.0.103', 'pkg:cargo/unicode-ident@1.0.5']);
    expect(t.components.find((c) => c.name === 'syn')!.dependsOn).toEqual(['pkg:cargo/proc-macro2@1.0.47', 'pkg:cargo/unicode-ident@1.0.5']);
  });
});
