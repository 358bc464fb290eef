// Generates a synthetic monorepo of at least 5,000 components across npm, Maven, PyPI and Go
// (issue 3's benchmark input): a package-lock v3 with edges, a multi-module Maven build, a
// requirements file plus a poetry.lock, and a go.mod with go.sum. Deterministic, cached by size.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Monorepo { root: string; expected: number }

export function generateMonorepo(perEcosystem = 1250): Monorepo {
  const root = path.join(tmpdir(), `cairn-bench-monorepo-v2-${perEcosystem}`);
  const expected = perEcosystem * 4;
  if (existsSync(path.join(root, '.complete'))) return { root, expected };
  const write = (rel: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  };

  // npm: one lockfile, each package depending on the next two.
  const packages: Record<string, unknown> = { '': { name: 'web', version: '1.0.0', dependencies: { 'pkg-0': '1.0.0' } } };
  for (let i = 0; i < perEcosystem; i++) {
    const deps = Object.fromEntries([i + 1, i + 2].filter((j) => j < perEcosystem).map((j) => [`pkg-${j}`, `^1.${j}.0`]));
    packages[`node_modules/pkg-${i}`] = { version: `1.${i}.0`, resolved: `https://registry.npmjs.org/pkg-${i}/-/pkg-${i}-1.${i}.0.tgz`, license: 'MIT', ...(Object.keys(deps).length && { dependencies: deps }) };
  }
  write('apps/web/package.json', JSON.stringify({ name: 'web', version: '1.0.0', dependencies: { 'pkg-0': '1.0.0' } }, null, 2));
  write('apps/web/package-lock.json', JSON.stringify({ name: 'web', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2));

  // Maven: a parent with 50 modules, each declaring its own slice of dependencies.
  const modules = 50;
  const perModule = Math.ceil(perEcosystem / modules);
  const pom = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>${body}</project>\n`;
  write('services/pom.xml', pom(`<groupId>com.example</groupId><artifactId>services</artifactId><version>1.0.0</version><packaging>pom</packaging><modules>${Array.from({ length: modules }, (_, m) => `<module>m${m}</module>`).join('')}</modules>`));
  for (let m = 0; m < modules; m++) {
    const deps = Array.from({ length: perModule }, (_, d) => m * perModule + d).filter((n) => n < perEcosystem)
      .map((n) => `<dependency><groupId>org.lib${n % 97}</groupId><artifactId>artifact-${n}</artifactId><version>2.${n}.0</version></dependency>`).join('');
    write(`services/m${m}/pom.xml`, pom(`<parent><groupId>com.example</groupId><artifactId>services</artifactId><version>1.0.0</version></parent><artifactId>m${m}</artifactId><dependencies>${deps}</dependencies>`));
  }

  // PyPI: half pinned in requirements.txt, half in a poetry.lock.
  const half = Math.floor(perEcosystem / 2);
  write('tools/requirements.txt', Array.from({ length: half }, (_, i) => `py-req-${i}==3.${i}.0`).join('\n') + '\n');
  write('ml/poetry.lock', Array.from({ length: perEcosystem - half }, (_, i) =>
    `[[package]]\nname = "py-lock-${i}"\nversion = "4.${i}.0"\ndescription = ""\noptional = false\npython-versions = "*"\n${i + 1 < perEcosystem - half ? `\n[package.dependencies]\npy-lock-${i + 1} = "*"\n` : ''}`).join('\n') +
    '\n[metadata]\nlock-version = "2.0"\npython-versions = "^3.10"\ncontent-hash = "0"\n');

  // Go: one module requiring them all.
  const mods = Array.from({ length: perEcosystem }, (_, i) => [`github.com/org${i % 50}/mod${i}`, `v1.${i}.0`] as const);
  write('cmd/go.mod', `module example.com/cmd\n\ngo 1.22\n\nrequire (\n${mods.map(([p, v]) => `\t${p} ${v}`).join('\n')}\n)\n`);
  // Well-formed h1: hashes (base64 SHA-256), so tools that check them accept the file.
  const h1 = (s: string) => `h1:${createHash('sha256').update(s).digest('base64')}`;
  write('cmd/go.sum', mods.flatMap(([p, v]) => [`${p} ${v} ${h1(p + v)}`, `${p} ${v}/go.mod ${h1(p + v + 'mod')}`]).join('\n') + '\n');

  write('.complete', '');
  return { root, expected };
}
