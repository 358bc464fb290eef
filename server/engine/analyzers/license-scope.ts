// Whose licence a licence text found in a file is: the project's own (its LICENSE, its source
// headers, the licence files its dependencies bring along), or material the project merely carries.
// Licence texts turn up in three kinds of places that say nothing about the licence the project is
// under or the licences it has to honour, and which a licence scanner must not count as such:
//
//   - `test`: test code and fixtures. A licence scanner's, a package manager's or a compiler's test
//     suite holds GPL, AGPL, SSPL texts as inputs (`test/fixtures/gpl-3.0.txt`); they are data of
//     the tests, not terms the product ships under. Any path with a folder named test, tests,
//     __tests__, testdata, test-data, test_data, fixture(s), __fixtures__, __mocks__, __snapshots__,
//     spec, specs or e2e (the conventions of npm, Go, Ruby, Python, Maven/Gradle `src/test`, Jest).
//   - `licence-data`: vendored licence databases, which hold every licence's text by design:
//     the spdx-license-list, spdx-license-ids, spdx-exceptions and spdx-licenses packages
//     (node_modules or vendored), SPDX license-list-data / license-list-XML, licensee's
//     vendor/choosealicense.com, ScanCode's licensedcode data, and any folder named
//     license-list / licenses-data.
//   - `data`: data files, whatever their folder: a licence text inside a JSON, CSV, TSV, XML, SQL,
//     NDJSON or .dat file is a value in a data set (a licence list, a crawl, a database dump), not a
//     licence grant. Manifests written in those formats (package.json, composer.json, bower.json,
//     pom.xml, *.nuspec, *.csproj …) are not data: their licence field IS the project's (or the
//     component's) declaration. Nor is a licence header or an SPDX-License-Identifier tag in such
//     a file (the Apache header atop an XML configuration, an SQL script's SPDX line): that is the
//     file's own notice; only full texts and mentions by name inside data files are data.
//
// The rule looks at the path (and, for data files, how the licence was found) only, so it is the same for every analysis and can be explained to a
// user in one sentence per scope. Licences found out of the project's scope are kept and shown apart
// (the licence tab's 测试/数据文件中的许可证 view, with the reason), never counted among the
// project's licences (licence totals, levels, the dashboard, reports, the licence knowledge base's
// 涉及项目) and never read as the project's own licence (project-license.ts). Licence conflicts
// are judged per component against the outbound licence and never read file findings at all.

/** Where a licence found in a file belongs. */
export type LicenseScope = 'project' | 'test' | 'licence-data' | 'data';

/** The scopes that are not the project's own licences. */
export const EXCLUDED_SCOPES: readonly LicenseScope[] = ['test', 'licence-data', 'data'];

const TEST_DIRS = new Set([
  'test', 'tests', '__tests__', '__test__', 'testdata', 'test-data', 'test_data', 'testfiles', 'test-files',
  'fixture', 'fixtures', '__fixtures__', 'test-fixtures', 'test_fixtures', '__mocks__', '__snapshots__',
  'spec', 'specs', 'e2e',
]);

const LICENCE_DATA_DIRS = new Set([
  'spdx-license-list', 'spdx-license-ids', 'spdx-exceptions', 'spdx-licenses', 'spdx-license-data',
  'license-list-data', 'license-list-xml', 'license-list', 'licenses-data', 'licence-list-data',
  'choosealicense.com', 'choosealicense', 'licensedcode',
]);

const DATA_EXTENSIONS = new Set(['json', 'jsonl', 'ndjson', 'csv', 'tsv', 'xml', 'sql', 'dat']);

/** Manifests and lock files written in a data format: their licence fields are declarations. */
const MANIFEST_NAMES = new Set([
  'package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'composer.json', 'composer.lock', 'bower.json',
  'pom.xml', 'ivy.xml', 'packages.config', 'directory.packages.props', 'app.json', 'manifest.json', 'deno.json',
  'jsr.json', 'vcpkg.json', 'conanfile.txt', 'pubspec.json',
]);
const MANIFEST_EXTENSIONS = new Set(['nuspec', 'csproj', 'vbproj', 'fsproj', 'props', 'targets']);

/**
 * The scope of a licence found in the file at `file` (root-relative, `/`-separated) as `kind`
 * (text, header, tag, reference; declared for a manifest's licence field). `projectRoot` is the one
 * folder an archive wraps the project in, if any: its own name is not judged (a project packed as
 * `spec/` or `test/` is not a test fixture).
 */
export function licenseScopeOf(file: string, kind = 'text', projectRoot = ''): LicenseScope {
  const inside = projectRoot && file.startsWith(`${projectRoot}/`) ? file.slice(projectRoot.length + 1) : file;
  const parts = inside.split('/').filter(Boolean);
  const dirs = parts.slice(0, -1).map((p) => p.toLowerCase());
  const name = (parts.at(-1) ?? '').toLowerCase();
  if (dirs.some((d) => LICENCE_DATA_DIRS.has(d))) return 'licence-data';
  if (dirs.some((d) => TEST_DIRS.has(d))) return 'test';
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  const notice = kind === 'header' || kind === 'tag' || kind === 'declared';
  if (DATA_EXTENSIONS.has(ext) && !notice && !MANIFEST_NAMES.has(name) && !MANIFEST_EXTENSIONS.has(ext)) return 'data';
  return 'project';
}

/** Whether a licence in this scope is one of the project's own. */
export const isProjectScope = (scope: string): boolean => scope === 'project';
