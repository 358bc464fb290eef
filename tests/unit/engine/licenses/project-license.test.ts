// The outbound licence read from the root project's manifests (engine/project-license.ts): each
// reader on real manifests of public projects (manifests/README.md says whose), then the choice over
// a tree — the root (or the one folder an archive wraps it in) only, manifests in precedence order,
// the root licence file as the fallback, nested manifests and test fixtures never.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  readCargoToml, readComposerJson, readGemspec, readMsbuildProject, readNuspec, readPackageJson, readPomXml, readProjectLicense,
  readPyprojectToml, readSetupCfg,
} from '../../../../server/engine/project-license.ts';

const manifest = (name: string) => readFileSync(fileURLToPath(new URL(`./manifests/${name}`, import.meta.url)), 'utf8');
const work = mkdtempSync(path.join(tmpdir(), 'cairn-project-license-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A tree under a fresh folder: path → content. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(work, 'tree-'));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('manifest readers on real manifests', () => {
  it('reads package.json (npm)', () => {
    expect(readPackageJson(manifest('kysely-package.json'))).toBe('MIT');
    expect(readPackageJson(manifest('smol-toml-package.json'))).toBe('BSD-3-Clause');
    // The closed-source marker, the legacy forms, and a field that names no licence.
    expect(readPackageJson('{"name":"app","license":"UNLICENSED"}')).toBe('UNLICENSED');
    expect(readPackageJson('{"license":{"type":"Apache-2.0","url":"https://www.apache.org/licenses/LICENSE-2.0"}}')).toBe('Apache-2.0');
    expect(readPackageJson('{"licenses":[{"type":"MIT"},{"type":"Apache-2.0"}]}')).toBe('MIT OR Apache-2.0');
    expect(readPackageJson('{"license":"SEE LICENSE IN LICENSE.txt"}')).toBeNull();
    expect(readPackageJson('{"name":"private-app","private":true}')).toBeNull();
  });

  it('reads Cargo.toml', () => {
    expect(readCargoToml(manifest('Cargo.toml'))).toBe('Unlicense OR MIT');
    expect(readCargoToml('[package]\nname = "x"\nlicense-file = "LICENSE"\n')).toBeNull();
    // A virtual workspace manifest has no [package].
    expect(readCargoToml('[workspace]\nmembers = ["a"]\n')).toBeNull();
  });

  it('reads pyproject.toml: [project] license, then poetry, then classifiers', () => {
    expect(readPyprojectToml(manifest('black-pyproject.toml'))).toBe('MIT');
    expect(readPyprojectToml('[project]\nname = "x"\nlicense = "Apache-2.0 OR BSD-3-Clause"\n')).toBe('Apache-2.0 OR BSD-3-Clause');
    expect(readPyprojectToml('[tool.poetry]\nname = "x"\nlicense = "GPL-3.0-or-later"\n')).toBe('GPL-3.0-or-later');
    expect(readPyprojectToml('[project]\nname = "x"\nclassifiers = ["License :: OSI Approved :: Apache Software License"]\n')).toBe('Apache-2.0');
    expect(readPyprojectToml('[project]\nname = "x"\nlicense = { file = "LICENSE" }\n')).toBeNull();
    // trivy's poetry test project declares none.
    expect(readPyprojectToml(readFileSync(path.resolve('../shared/corpora/trivy/repo/poetry/pyproject.toml'), 'utf8'))).toBeNull();
  });

  it('reads setup.cfg: [metadata] license, then classifiers', () => {
    expect(readSetupCfg(manifest('setup.cfg'))).toBe('MIT');
    const onlyClassifiers = manifest('setup.cfg').replace(/^license = MIT\n/m, '');
    expect(onlyClassifiers).not.toMatch(/^license/m);
    expect(readSetupCfg(onlyClassifiers)).toBe('MIT');
    expect(readSetupCfg('[metadata]\nname = x\nlicense = file: LICENSE\n')).toBeNull();
  });

  it('reads composer.json: a string, or a list of alternatives', () => {
    expect(readComposerJson(manifest('laravel-composer.json'))).toBe('MIT');
    expect(readComposerJson('{"license":["LGPL-2.1-only","GPL-3.0-or-later"]}')).toBe('LGPL-2.1-only OR GPL-3.0-or-later');
    expect(readComposerJson('{"license":"proprietary"}')).toBe('LicenseRef-proprietary');
  });

  it('reads *.gemspec', () => {
    expect(readGemspec(manifest('rack.gemspec'))).toBe('MIT');
    expect(readGemspec('Gem::Specification.new do |s|\n  s.name = "x"\n  s.licenses = ["MIT", "Ruby"]\nend\n')).toBe('MIT OR Ruby');
  });

  it('reads *.csproj and *.nuspec licence expressions', () => {
    expect(readMsbuildProject(manifest('Serilog.csproj'))).toBe('Apache-2.0');
    // A licence URL (PackageLicenseUrl, deprecated) names no licence.
    expect(readMsbuildProject('<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><PackageLicenseUrl>https://example.com/LICENSE.md</PackageLicenseUrl></PropertyGroup></Project>')).toBeNull();
    expect(readNuspec('<?xml version="1.0"?><package><metadata><id>x</id><license type="expression">MIT OR Apache-2.0</license></metadata></package>')).toBe('MIT OR Apache-2.0');
    expect(readNuspec('<?xml version="1.0"?><package><metadata><id>x</id><license type="file">LICENSE.txt</license></metadata></package>')).toBeNull();
  });

  it('reads pom.xml <licenses>', () => {
    expect(readPomXml(manifest('junit4-pom.xml'))).toBe('EPL-1.0');
    expect(readPomXml('<project><licenses><license><name>The Apache Software License, Version 2.0</name></license><license><name>MIT License</name></license></licenses></project>')).toBe('Apache-2.0 OR MIT');
    expect(readPomXml('<project><artifactId>x</artifactId></project>')).toBeNull();
  });
});

describe('the root project\'s licence over a tree', () => {
  const gpl = new Map([['test/fixtures/gpl-3.0.txt', ['GPL-3.0-only']]]);

  it('reads the root manifest, ignoring nested manifests and test fixtures', async () => {
    const root = tree({
      'package.json': manifest('kysely-package.json'),
      'test/fixtures/gpl-3.0.txt': 'GNU GENERAL PUBLIC LICENSE',
      'test/fixtures/agpl/package.json': '{"name":"fixture","license":"AGPL-3.0-only"}',
      'packages/sub/Cargo.toml': '[package]\nname = "sub"\nlicense = "GPL-2.0-only"\n',
    });
    expect(await readProjectLicense(root, gpl)).toEqual({ expression: 'MIT', source: 'manifest', file: 'package.json' });
  });

  it('looks inside the one folder an archive wraps the project in', async () => {
    const root = tree({ 'ripgrep-14.1.0/Cargo.toml': manifest('Cargo.toml'), 'ripgrep-14.1.0/README.md': '# ripgrep' });
    expect(await readProjectLicense(root)).toEqual({ expression: 'Unlicense OR MIT', source: 'manifest', file: 'ripgrep-14.1.0/Cargo.toml' });
  });

  it('takes manifests in precedence order and skips those that declare nothing', async () => {
    const root = tree({
      'package.json': '{"name":"front","private":true}',
      'pom.xml': manifest('junit4-pom.xml'),
      'pyproject.toml': manifest('black-pyproject.toml'),
    });
    expect(await readProjectLicense(root)).toEqual({ expression: 'MIT', source: 'manifest', file: 'pyproject.toml' });
  });

  it('falls back to the full licence text of the root licence file, never a fixture\'s', async () => {
    const root = tree({ 'LICENSE': 'Apache License 2.0 …', 'go.mod': 'module x\n', 'test/fixtures/gpl-3.0.txt': 'GPL' });
    const texts = new Map([['LICENSE', ['Apache-2.0']], ...gpl]);
    expect(await readProjectLicense(root, texts)).toEqual({ expression: 'Apache-2.0', source: 'license-file', file: 'LICENSE' });
    expect(await readProjectLicense(tree({ 'go.mod': 'module x\n', 'test/fixtures/gpl-3.0.txt': 'GPL' }), gpl)).toBeNull();
  });

  it('survives a manifest that does not parse', async () => {
    const root = tree({ 'package.json': '{ not json', 'Cargo.toml': manifest('Cargo.toml') });
    expect(await readProjectLicense(root)).toEqual({ expression: 'Unlicense OR MIT', source: 'manifest', file: 'Cargo.toml' });
  });
});
