// Every format Cairn reads, in one folder, through the real CLI once (issue 17: "cairn scan of a
// folder holding every format finds components in each"). The folder holds one sub-folder per
// extractor of allExtractors, each with a real input copied from the repository's fixtures, the
// shared corpora (../shared/corpora) or the system's Debian packages (see .ci/run), at the path the
// extractor's matches() expects. Two inputs are built here because no real file of their kind is
// kept: the RPM package (rpmbuild, as the rpm-file unit test does) and the Alpine package (the real
// strace .PKGINFO packed as abuild packs it); the Excel/CSV component list is what a user writes.
// The test prints the census table (extractor, file, components) that the issue's closing note quotes.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadExtractors } from '../../../server/engine/index.ts';
import { CORPORA, TRIVY } from '../../support/golden.ts';
import { alpinePackage } from '../../support/package-files.ts';

const { allExtractors } = await loadExtractors();
const CLI = path.resolve('cli/cairn.ts');
const FIX = path.resolve('tests/fixtures');
const LOCKS = path.join(FIX, 'public/lockfiles');
const SCALIBR = path.join(CORPORA, 'lockfiles/scalibr');

/** Extractor name → [source file or folder, path under `<name>/` in the scanned folder ('' = the folder itself)]. */
const INPUTS: Record<string, Array<[string, string]>> = {
  'bun': [[path.join(TRIVY, 'repo/bun/bun.lock'), 'bun.lock']],
  'bun-lockb': [[path.join(LOCKS, 'bun/lockb-basic'), '']],
  'cargo': [[path.join(TRIVY, 'repo/cargo'), '']],
  'cocoapods': [[path.join(TRIVY, 'repo/cocoapods/Podfile.lock'), 'Podfile.lock']],
  'composer': [[path.join(TRIVY, 'repo/composer'), '']],
  'composer-vendor': [[path.join(TRIVY, 'repo/composer-vendor/installed.json'), 'vendor/composer/installed.json']],
  'conan': [[path.join(TRIVY, 'repo/conan/conan.lock'), 'conan.lock']],
  'conanfile': [[path.join(LOCKS, 'conan/syft-conanfile-txt/conanfile.txt'), 'conanfile.txt']],
  'conanfile.py': [[path.join(LOCKS, 'conan/advent-of-code/conanfile.py'), 'conanfile.py']],
  'conda-environment': [[path.join(TRIVY, 'repo/conda-environment/environment.yaml'), 'environment.yaml']],
  'conda-meta': [[path.join(TRIVY, 'repo/conda'), '']],
  // excel: written below (a component list is what a user fills in).
  'gomod': [[path.join(TRIVY, 'repo/gomod'), '']],
  'gomod-vendor': [[path.join(SCALIBR, 'golang/vendormodules/testdata/valid/vendor/modules.txt'), 'vendor/modules.txt']],
  'gobinary': [[path.join(FIX, 'gobinary/hello-linux-amd64'), 'hello']],
  'gradle': [[path.join(TRIVY, 'repo/gradle/gradle.lockfile'), 'gradle.lockfile']],
  'gradle-verification': [[path.join(SCALIBR, 'java/gradleverificationmetadataxml/testdata/two-packages.xml'), 'gradle/verification-metadata.xml']],
  'gradle-catalog': [[path.join(LOCKS, 'gradle/nowinandroid/gradle/libs.versions.toml'), 'gradle/libs.versions.toml']],
  'gradle-build': [[path.join(LOCKS, 'gradle/ort-gradle-library/lib/build.gradle'), 'build.gradle']],
  'hex': [[path.join(TRIVY, 'repo/mixlock/mix.lock'), 'mix.lock']],
  'rebar': [[path.join(LOCKS, 'hex/syft-rebar-2/rebar.lock'), 'rebar.lock']],
  'pom': [[path.join(TRIVY, 'repo/pom/pom.xml'), 'pom.xml']],
  'jar': [[path.join(FIX, 'jars/oro-2.0.8.jar'), 'lib/oro-2.0.8.jar']],
  'npm': [[path.join(TRIVY, 'repo/npm'), '']],
  'nuget': [[path.join(TRIVY, 'repo/nuget/packages.lock.json'), 'packages.lock.json']],
  'packages-config': [[path.join(LOCKS, 'nuget/trivy-packages-config/packages.config'), 'packages.config']],
  'msbuild': [[path.resolve('tests/unit/engine/licenses/manifests/Serilog.csproj'), 'Serilog.csproj']],
  'packages-props': [[path.join(TRIVY, 'repo/packagesprops/Directory.Packages.props'), 'Directory.Packages.props']],
  'dotnet-deps': [[path.join(TRIVY, 'repo/dotnet/datacollector.deps.json'), 'datacollector.deps.json']],
  'paket': [[path.join(LOCKS, 'nuget/paket-http/paket.lock'), 'paket.lock']],
  'dpkg': [[path.join(FIX, 'public/os/ubuntu-12.04/var'), 'var']],
  'opkg': [[path.join(CORPORA, 'os/scalibr/dpkg/testdata/opkg/valid'), 'usr/lib/opkg/status']],
  'apk': [[path.join(FIX, 'public/os/alpine-3.20/lib'), 'lib']],
  'rpm': [[path.join(CORPORA, 'os/go-rpmdb/pkg/testdata/cbl-mariner-2.0/rpmdb.sqlite'), 'var/lib/rpm/rpmdb.sqlite']],
  'pacman': [[path.join(FIX, 'os/pacman/var'), 'var']],
  'pnpm': [[path.join(TRIVY, 'repo/pnpm'), '']],
  'pub': [[path.join(TRIVY, 'repo/pubspec/pubspec.lock'), 'pubspec.lock']],
  'pip': [[path.join(TRIVY, 'repo/pip/requirements.txt'), 'requirements.txt']],
  'pipenv': [[path.join(TRIVY, 'repo/pipenv/Pipfile.lock'), 'Pipfile.lock']],
  'poetry': [[path.join(TRIVY, 'repo/poetry'), '']],
  'uv': [[path.join(TRIVY, 'repo/uv/uv.lock'), 'uv.lock']],
  'pdm': [[path.join(LOCKS, 'pypi/pdm-demo-extras/pdm.lock'), 'pdm.lock']],
  'pylock': [[path.join(TRIVY, 'repo/pylock/pylock.toml'), 'pylock.toml']],
  'pipfile': [[path.join(LOCKS, 'pypi/pipenv-pipfile/Pipfile'), 'Pipfile']],
  // Poetry's pyproject.toml alone: beside its poetry.lock it is left to the lock.
  'pyproject': [[path.join(TRIVY, 'repo/poetry/pyproject.toml'), 'pyproject.toml']],
  'setup.py': [[path.join(LOCKS, 'pypi/requests-setup-py/setup.py'), 'setup.py']],
  'setup.cfg': [[path.join(LOCKS, 'pypi/pytest-setup-cfg/setup.cfg'), 'setup.cfg']],
  'python-pkg': [[path.join(FIX, 'image-langs/python/distro-1.8.0.METADATA'), 'site-packages/distro-1.8.0.dist-info/METADATA']],
  'bundler': [[path.join(LOCKS, 'ruby/original/Gemfile.lock'), 'Gemfile.lock']],
  'gemspec': [[path.join(FIX, 'image-langs/gems/rake-13.2.1.gemspec'), 'specifications/rake-13.2.1.gemspec']],
  'sbom': [[path.join(CORPORA, 'sbom/examples/keycloak-10.0.2/bom.json'), 'bom.json'], [path.join(FIX, 'public/sbom/spdx3/example11-sbom.spdx.json'), 'example11-sbom.spdx.json'],
    [path.join(CORPORA, 'sbom/spdx-tools/data/SPDXJSONExample-v2.3.spdx.json'), 'SPDXJSONExample-v2.3.spdx.json'],
    [path.join(CORPORA, 'sbom/spdx-tools/data/SPDXTagExample-v2.3.spdx'), 'SPDXTagExample-v2.3.spdx'],
    [path.join(FIX, 'public/sbom/cdx-textproto/valid-component-identifiers-1.6.textproto'), 'valid-component-identifiers-1.6.cdx.textproto']],
  'swift': [[path.join(TRIVY, 'repo/swift/Package.resolved'), 'Package.resolved']],
  'yarn': [[path.join(TRIVY, 'repo/yarn'), '']],
  'carton': [[path.join(LOCKS, 'cpan/p5-List-Flatten-XS/cpanfile.snapshot'), 'cpanfile.snapshot']],
  'renv': [[path.join(LOCKS, 'cran/renv-bioconductor/renv.lock'), 'renv.lock']],
  'r-description': [[path.join(LOCKS, 'cran/debian-site-library/magrittr/DESCRIPTION'), 'site-library/magrittr/DESCRIPTION']],
  'githubactions': [[path.join(LOCKS, 'githubactions/cloudflare-terraform-infra/.github'), '.github']],
  'stack': [[path.join(LOCKS, 'hackage/syft-stack/stack.yaml.lock'), 'stack.yaml.lock']],
  'cabal': [[path.join(LOCKS, 'hackage/syft-cabal/cabal.project.freeze'), 'cabal.project.freeze']],
  'julia': [[path.join(TRIVY, 'repo/julia'), '']],
  'terraform': [[path.join(LOCKS, 'terraform/syft-two-providers/.terraform.lock.hcl'), '.terraform.lock.hcl']],
  // Debian's zlib (zlib1g, in every Debian system).
  'native': [['/usr/lib/x86_64-linux-gnu/libz.so.1', 'libz.so.1']],
  'cargo-auditable': [[path.join(FIX, 'cargo-auditable/rust-audit-demo'), 'rust-audit-demo']],
  // Debian's libnewtonsoft-json5.0-cil.
  'dotnet-assembly': [['/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll', 'Newtonsoft.Json.dll']],
  // Debian's nupkg-newtonsoft.json.6.0.8 and nupkg-nunit.2.6.4; a global packages folder is built below from the first.
  'nupkg': [['/usr/share/nupkg/Newtonsoft.Json.6.0.8.nupkg', 'Newtonsoft.Json.6.0.8.nupkg'], ['/usr/share/nupkg/NUnit.2.6.4.nupkg', 'NUnit.2.6.4.nupkg']],
  'nuget-assets': [[path.join(LOCKS, 'nuget/testtreetojson-assets/obj/project.assets.json'), 'obj/project.assets.json']],
  'deb-file': [[path.join(FIX, 'public/pkgfiles/liblzf1_3.6-3_amd64.deb'), 'liblzf1_3.6-3_amd64.deb']],
  // rpm-file, apk-file: built below.
  'wheel': [[path.join(FIX, 'public/pkgfiles/example-21.12-py3-none-any.whl'), 'example-21.12-py3-none-any.whl']],
  'egg': [[path.join(FIX, 'public/pkgfiles/example-21.12-py3.6.egg'), 'example-21.12-py3.6.egg']],
  'npm-tarball': [[path.join(FIX, 'public/pkgfiles/ms-2.1.2.tgz'), 'ms-2.1.2.tgz']],
  'rockspec': [[path.join(LOCKS, 'luarocks/luasyslog-2.0.1-1.rockspec'), 'luasyslog-2.0.1-1.rockspec']],
  'jenkins-plugins': [[path.join(LOCKS, 'jenkins/plugins.txt'), 'plugins.txt']],
  'bazel-lock': [[path.join(LOCKS, 'bazel/hello-bazel'), '']],
  'bazel-module': [[path.join(LOCKS, 'bazel/hello-bazel-module/MODULE.bazel'), 'MODULE.bazel']],
  'opam': [[path.join(LOCKS, 'opam/alcotest/alcotest.opam'), 'alcotest.opam']],
  'nix-store': [[path.join(LOCKS, 'nix/fixture-1/nix'), 'nix']],
  'homebrew': [[path.join(LOCKS, 'brew/opt'), 'opt'], [path.join(LOCKS, 'brew/swiftlint/Brewfile.lock.json'), 'Brewfile.lock.json']],
  'pear-registry': [[path.join(LOCKS, 'pear/php-pear/usr'), 'usr']],
  'wordpress-plugin': [[path.join(LOCKS, 'wordpress/debian/wp-content'), 'wp-content']],
};

/**
 * Extractors with no input in this folder, each with the reason. Only what no real file in the
 * repository, the shared corpora or a Debian package of .ci/run provides.
 */
/** Extractors whose targets are typed by the kind of file read, not by the extractor's name: each kind must be found. */
const TARGET_TYPES: Record<string, string[]> = {
  sbom: ['cyclonedx', 'cyclonedx-textproto', 'spdx', 'spdx3'],
  homebrew: ['brew-receipt', 'brew-formula', 'brewfile-lock'],
};

const EXCEPTIONS: Record<string, string> = {};

const RPM_SPEC = `Name: cairn-hello
Version: 1.2.3
Release: 4
Summary: A file to package
License: MIT
BuildArch: noarch

%description
A file to package.

%install
mkdir -p %{buildroot}/usr/share/cairn-hello
echo hello > %{buildroot}/usr/share/cairn-hello/hello.txt

%files
/usr/share/cairn-hello/hello.txt
`;

interface JsonOut {
  /** Each file read, by the extractor that read it, with its number of components. */
  targets: Array<{ file: string; type: string; components: number }>;
  components: Array<{ purl: string; locations: Array<{ file: string }> }>;
  problems: Array<{ file: string; message: string }>;
}

const work = mkdtempSync(path.join(tmpdir(), 'cairn-every-format-'));
const root = path.join(work, 'every-format');
let doc: JsonOut;

beforeAll(async () => {
  for (const [name, inputs] of Object.entries(INPUTS)) {
    for (const [from, to] of inputs) {
      const dest = path.join(root, name, to);
      mkdirSync(path.dirname(dest), { recursive: true });
      if (statSync(from).isDirectory()) cpSync(from, dest, { recursive: true, dereference: true });
      else copyFileSync(from, dest);
    }
  }
  // A component list as a user fills it in (the columns of the 组件清单 template).
  mkdirSync(path.join(root, 'excel'), { recursive: true });
  writeFileSync(path.join(root, 'excel', '第三方组件清单.csv'), '组件名称,版本,语言/生态,purl,许可证,备注\nlodash,4.17.21,npm,pkg:npm/lodash@4.17.21,MIT,前端工具库\nguava,32.1.2-jre,maven,pkg:maven/com.google.guava/guava@32.1.2-jre,Apache-2.0,\n');
  // A global packages folder (~/.nuget/packages/<id>/<version>/, lower case) as NuGet extracts Debian's package.
  const extracted = path.join(root, 'nupkg', 'packages', 'newtonsoft.json', '6.0.8');
  mkdirSync(extracted, { recursive: true });
  writeFileSync(path.join(extracted, 'newtonsoft.json.nuspec'), execFileSync('unzip', ['-p', '/usr/share/nupkg/Newtonsoft.Json.6.0.8.nupkg', 'Newtonsoft.Json.nuspec']));
  mkdirSync(path.join(root, 'apk-file'), { recursive: true });
  writeFileSync(path.join(root, 'apk-file', 'strace-5.14-r0.apk'), await alpinePackage(readFileSync(path.join(FIX, 'public/pkgfiles/strace-5.14-r0.PKGINFO'))));
  const rpmTop = path.join(work, 'rpmbuild');
  mkdirSync(path.join(rpmTop, 'SPECS'), { recursive: true });
  writeFileSync(path.join(rpmTop, 'SPECS/hello.spec'), RPM_SPEC);
  execFileSync('rpmbuild', ['--define', `_topdir ${rpmTop}`, '-bb', path.join(rpmTop, 'SPECS/hello.spec')], { stdio: 'ignore' });
  mkdirSync(path.join(root, 'rpm-file'), { recursive: true });
  copyFileSync(path.join(rpmTop, 'RPMS/noarch/cairn-hello-1.2.3-4.noarch.rpm'), path.join(root, 'rpm-file', 'cairn-hello-1.2.3-4.noarch.rpm'));

  const run = spawnSync(process.execPath, [CLI, 'scan', root, '--format', 'json'], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  expect(run.status, run.stderr).toBe(0);
  doc = JSON.parse(run.stdout) as JsonOut;
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('cairn scan of a folder holding every format', () => {
  it('has an input for every extractor, or a stated reason', () => {
    const named = new Set([...Object.keys(INPUTS), 'excel', 'apk-file', 'rpm-file']);
    for (const e of allExtractors) expect(named.has(e.name) !== (e.name in EXCEPTIONS), `${e.name}：要么有输入，要么在例外清单中`).toBe(true);
    for (const name of Object.keys(EXCEPTIONS)) expect(allExtractors.some((e) => e.name === name), name).toBe(true);
    for (const [from] of Object.values(INPUTS).flat()) expect(existsSync(from), from).toBe(true);
  });

  it('finds components with every extractor and no problem', () => {
    const rows: string[] = ['| 提取器 | 文件 | 组件数 |', '|---|---|---|'];
    const missing: string[] = [];
    for (const e of allExtractors) {
      if (e.name in EXCEPTIONS) {
        rows.push(`| ${e.name} | —（${EXCEPTIONS[e.name]}） | — |`);
        continue;
      }
      const types = TARGET_TYPES[e.name] ?? [e.name];
      const found = doc.targets.filter((t) => types.includes(t.type) && t.components > 0);
      for (const type of types) if (!found.some((t) => t.type === type)) missing.push(type === e.name ? e.name : `${e.name}（${type}）`);
      for (const t of found) rows.push(`| ${e.name}${t.type === e.name ? '' : `（${t.type}）`} | ${t.file} | ${t.components} |`);
    }
    console.log(`\n${rows.join('\n')}\n\n${doc.targets.length} 个目标、${doc.components.length} 个组件\n`);
    expect(missing, '没有读出组件的提取器').toEqual([]);
    expect(doc.problems).toEqual([]);
  });

  it('reads NuGet packages, a global packages folder and a restore\'s assets file exactly', () => {
    const foundIn = (prefix: string) => doc.components.filter((c) => c.locations.some((l) => l.file.startsWith(prefix)))
      .map((c) => `${c.purl} ${c.locations.filter((l) => l.file.startsWith(prefix)).map((l) => l.file).sort().join(' ')}`).sort();
    expect(foundIn('nupkg/')).toEqual([
      'pkg:nuget/NUnit@2.6.4 nupkg/NUnit.2.6.4.nupkg',
      'pkg:nuget/Newtonsoft.Json@6.0.8 nupkg/Newtonsoft.Json.6.0.8.nupkg nupkg/packages/newtonsoft.json/6.0.8/newtonsoft.json.nuspec',
    ]);
    expect(foundIn('nuget-assets/')).toEqual(['pkg:nuget/Newtonsoft.Json@12.0.3 nuget-assets/obj/project.assets.json']);
  });
});
