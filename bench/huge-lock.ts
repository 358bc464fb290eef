// A huge npm project (issue 19's 43,000-entry lockfile): package.json plus a package-lock.json v3
// shaped like a real one — scoped and plain names, hoisted entries with nested copies of other
// versions under node_modules/<parent>/node_modules/, each entry with resolved, integrity,
// license and a dependencies map (some optional and peer ones, engines, bin), dev / optional /
// devOptional flags — and, beside it in sibling folders, the same packages as a yarn.lock (v1)
// and a pnpm-lock.yaml (v9), to check the other JavaScript lock readers at the same size.
// Deterministic (a seeded generator); cached in the temp folder by size.
//
//   ./node_modules/.bin/node bench/huge-lock.ts 43000   → prints the project folder
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface HugeLock {
  /** Folder with package.json and package-lock.json (npm/), yarn.lock (yarn/), pnpm-lock.yaml (pnpm/). */
  root: string;
  /** Entries of the package-lock.json `packages` map, the root entry excluded. */
  entries: number;
}

/** mulberry32: a small seeded generator, so every run writes the same bytes. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['core', 'utils', 'parser', 'loader', 'plugin', 'config', 'runtime', 'helper', 'types', 'cli', 'stream', 'cache', 'http', 'fs', 'path', 'string', 'array', 'object', 'event', 'async', 'color', 'format', 'compile', 'transform', 'resolve', 'glob', 'lint', 'test', 'babel', 'postcss'];
const SCOPES = ['@babel', '@types', '@jest', '@eslint', '@smithy', '@aws-sdk', '@octokit', '@vue', '@angular', '@nestjs'];
const LICENCES = ['MIT', 'MIT', 'MIT', 'ISC', 'Apache-2.0', 'BSD-3-Clause', 'BSD-2-Clause', '(MIT OR Apache-2.0)', '0BSD', 'BlueOak-1.0.0'];

interface Pkg { name: string; versions: string[]; deps: string[]; licence: string }
interface Entry { path: string; pkg: Pkg; version: string; dev: boolean; optional: boolean }

/** The packages and the lock's install paths: about 70 % hoisted, the rest nested copies of other versions. */
function plan(total: number): { pkgs: Pkg[]; entries: Entry[] } {
  const rnd = random(19);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const distinct = Math.ceil(total * 0.7);
  const pkgs: Pkg[] = [];
  for (let i = 0; i < distinct; i++) {
    const base = `${pick(WORDS)}-${pick(WORDS)}-${i.toString(36)}`;
    const name = rnd() < 0.2 ? `${pick(SCOPES)}/${base}` : base;
    const versions = Array.from({ length: 1 + Math.floor(rnd() * 3) }, (_, k) => `${Math.floor(rnd() * 12)}.${Math.floor(rnd() * 30)}.${k + Math.floor(rnd() * 9)}`);
    pkgs.push({ name, versions, deps: [], licence: pick(LICENCES) });
  }
  // Dependencies point "downwards" (to later packages), as in a real tree: no cycles needed to be realistic.
  for (let i = 0; i < distinct; i++) {
    const n = Math.floor(rnd() * 6);
    for (let k = 0; k < n && i + 1 < distinct; k++) {
      const j = i + 1 + Math.floor(rnd() * Math.min(distinct - i - 1, 2000));
      if (!pkgs[i]!.deps.includes(pkgs[j]!.name)) pkgs[i]!.deps.push(pkgs[j]!.name);
    }
  }
  const entries: Entry[] = pkgs.map((pkg) => ({ path: `node_modules/${pkg.name}`, pkg, version: pkg.versions[0]!, dev: rnd() < 0.35, optional: rnd() < 0.03 }));
  // Nested copies: another version of a dependency under the package that needs it (sometimes two levels deep).
  const byName = new Map(pkgs.map((p) => [p.name, p]));
  const taken = new Set(entries.map((e) => e.path));
  let guard = 0;
  while (entries.length < total && guard++ < total * 20) {
    const parent = entries[Math.floor(rnd() * entries.length)]!;
    const depName = parent.pkg.deps.length ? pick(parent.pkg.deps) : undefined;
    const dep = depName ? byName.get(depName) : undefined;
    if (!dep || dep.versions.length < 2 || parent.path.split('/node_modules/').length > 2) continue;
    const at = `${parent.path}/node_modules/${dep.name}`;
    if (taken.has(at)) continue;
    taken.add(at);
    entries.push({ path: at, pkg: dep, version: dep.versions[1 + Math.floor(rnd() * (dep.versions.length - 1))]!, dev: parent.dev, optional: parent.optional });
  }
  return { pkgs, entries };
}

const integrity = (name: string, version: string) => `sha512-${createHash('sha512').update(`${name}@${version}`).digest('base64')}`;
const tarball = (name: string, version: string) => `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz`;
const range = (version: string) => `^${version}`;

function packageLock(entries: Entry[], direct: Pkg[], devDirect: Pkg[]): string {
  const packages: Record<string, unknown> = {
    '': {
      name: 'huge', version: '1.0.0', license: 'UNLICENSED',
      dependencies: Object.fromEntries(direct.map((p) => [p.name, range(p.versions[0]!)])),
      devDependencies: Object.fromEntries(devDirect.map((p) => [p.name, range(p.versions[0]!)])),
    },
  };
  entries.forEach((e, i) => {
    const deps = e.pkg.deps.slice(0, Math.max(0, e.pkg.deps.length - 1));
    const optional = e.pkg.deps.length > 3 ? [e.pkg.deps.at(-1)!] : [];
    packages[e.path] = {
      version: e.version,
      resolved: tarball(e.pkg.name, e.version),
      integrity: integrity(e.pkg.name, e.version),
      ...(e.dev && !e.optional && { dev: true }),
      ...(e.optional && !e.dev && { optional: true }),
      ...(e.optional && e.dev && { devOptional: true }),
      license: e.pkg.licence,
      ...(deps.length && { dependencies: Object.fromEntries(deps.map((d) => [d, `^${(i + d.length) % 9}.0.0`])) }),
      ...(optional.length && { optionalDependencies: Object.fromEntries(optional.map((d) => [d, '*'])) }),
      ...(i % 11 === 0 && { bin: { [e.pkg.name.split('/').pop()!]: 'bin/cli.js' } }),
      ...(i % 5 === 0 && { engines: { node: '>=14' } }),
      ...(i % 97 === 0 && { peerDependencies: { [e.pkg.name]: '*' } }),
      ...(i % 13 === 0 && { funding: { url: `https://github.com/sponsors/${e.pkg.name.replace(/[@/]/g, '')}` } }),
    };
  });
  return JSON.stringify({ name: 'huge', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2) + '\n';
}

/** yarn.lock v1: one block per name@version, the ranges that resolve to it as its header. */
function yarnLock(entries: Entry[]): string {
  const blocks = new Map<string, Entry>();
  for (const e of entries) blocks.set(`${e.pkg.name}@${e.version}`, e);
  const out = ['# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n'];
  for (const [key, e] of [...blocks].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const deps = e.pkg.deps.map((d) => `    "${d}" "^${pkgVersionOf(entries, d)}"`);
    out.push(`"${e.pkg.name}@^${e.version}":\n  version "${e.version}"\n  resolved "${tarball(e.pkg.name, e.version)}#${key.length.toString(16)}"\n  integrity ${integrity(e.pkg.name, e.version)}\n${deps.length ? `  dependencies:\n${deps.join('\n')}\n` : ''}`);
  }
  return out.join('\n');
}

const hoisted = new WeakMap<Entry[], Map<string, string>>();
/** The hoisted version of a package (what `^version` of a dependency names in yarn and pnpm). */
function pkgVersionOf(entries: Entry[], name: string): string {
  let map = hoisted.get(entries);
  if (!map) {
    map = new Map(entries.filter((e) => !e.path.includes('/node_modules/')).map((e) => [e.pkg.name, e.version]));
    hoisted.set(entries, map);
  }
  return map.get(name)!;
}

/** pnpm-lock.yaml v9: importers, packages (resolution) and snapshots (dependencies). */
function pnpmLock(entries: Entry[], direct: Pkg[], devDirect: Pkg[]): string {
  const ids = new Map<string, Entry>();
  for (const e of entries) ids.set(`${e.pkg.name}@${e.version}`, e);
  const sorted = [...ids].sort(([a], [b]) => (a < b ? -1 : 1));
  const quote = (s: string) => (s.startsWith('@') ? `'${s}'` : s);
  const importer = (list: Pkg[]) => list.map((p) => `      ${quote(p.name)}:\n        specifier: ^${p.versions[0]}\n        version: ${p.versions[0]}`).join('\n');
  const out = [
    `lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n  .:\n    dependencies:\n${importer(direct)}\n    devDependencies:\n${importer(devDirect)}\n\npackages:\n`,
    ...sorted.map(([id, e]) => `  ${quote(id)}:\n    resolution: {integrity: ${integrity(e.pkg.name, e.version)}}\n${e.optional ? '    optional: true\n' : ''}`),
    'snapshots:\n',
    ...sorted.map(([id, e]) => `  ${quote(id)}:${e.pkg.deps.length ? `\n    dependencies:\n${e.pkg.deps.map((d) => `      ${quote(d)}: ${pkgVersionOf(entries, d)}`).join('\n')}` : ' {}'}\n`),
  ];
  return out.join('\n');
}

/** The project folders under the temp folder, made once per size. */
export function hugeLock(total = 43_000): HugeLock {
  const root = path.join(tmpdir(), `cairn-bench-huge-lock-v1-${total}`);
  if (existsSync(path.join(root, '.complete'))) return { root, entries: total };
  rmSync(root, { recursive: true, force: true });
  const { pkgs, entries } = plan(total);
  // What the project declares: every package nobody else depends on (so all of them are reachable), runtime or dev by its flag.
  const needed = new Set(pkgs.flatMap((p) => p.deps));
  const top = entries.filter((e) => !e.path.includes('/node_modules/') && !needed.has(e.pkg.name));
  const direct = top.filter((e) => !e.dev).map((e) => e.pkg);
  const devDirect = top.filter((e) => e.dev).map((e) => e.pkg);
  const manifest = JSON.stringify({
    name: 'huge', version: '1.0.0', license: 'UNLICENSED',
    dependencies: Object.fromEntries(direct.map((p) => [p.name, range(p.versions[0]!)])),
    devDependencies: Object.fromEntries(devDirect.map((p) => [p.name, range(p.versions[0]!)])),
  }, null, 2) + '\n';
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };
  write('npm/package.json', manifest);
  write('npm/package-lock.json', packageLock(entries, direct, devDirect));
  write('yarn/package.json', manifest);
  write('yarn/yarn.lock', yarnLock(entries));
  write('pnpm/package.json', manifest);
  write('pnpm/pnpm-lock.yaml', pnpmLock(entries, direct, devDirect));
  write('.complete', '');
  return { root, entries: entries.length };
}

if (import.meta.main) {
  const total = Number(process.argv[2] ?? 43_000);
  if (!Number.isInteger(total) || total < 1) throw new Error(`usage: huge-lock.ts <entries> (got ${process.argv[2]})`);
  console.log(hugeLock(total).root);
}
