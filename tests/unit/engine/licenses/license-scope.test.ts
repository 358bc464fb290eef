// The licence scope rule (engine/analyzers/license-scope.ts): licence texts in test code and
// fixtures, vendored licence databases and data files are not the project's licences; the project's
// own files, manifests in data formats and licence notices atop data files are.
import { describe, expect, it } from 'vitest';
import { isProjectScope, licenseScopeOf } from '../../../../server/engine/analyzers/license-scope.ts';

describe('licence scope', () => {
  it('keeps the project\'s own licence files, sources and its dependencies\' licence files', () => {
    for (const file of ['LICENSE', 'COPYING', 'myapp-1.2/LICENSE.txt', 'src/main/java/org/acme/App.java', 'lib/index.js',
      'vendor/github.com/pkg/errors/LICENSE', 'third_party/zlib/LICENSE', 'docs/licensing.md', 'NOTICE', 'README.md']) {
      expect(licenseScopeOf(file), file).toBe('project');
    }
  });

  it('puts texts in test code and fixtures apart, whatever the convention', () => {
    for (const file of ['test/fixtures/gpl-3.0.txt', 'tests/data/agpl.txt', '__tests__/licenses/GPL', 'pkg/scan/testdata/LICENSE',
      'src/test/resources/LICENSE-GPL', 'spec/fixtures/licenses/mit.txt', 'fixtures/COPYING', 'packages/a/__fixtures__/x/LICENSE',
      'e2e/projects/gpl/LICENSE', 'Test/Licenses/AGPL.txt', 'src/__mocks__/licence.js', 'a/test-data/LICENSE']) {
      expect(licenseScopeOf(file), file).toBe('test');
    }
  });

  it('puts vendored licence databases apart', () => {
    for (const file of ['vendor/choosealicense.com/_licenses/gpl-3.0.txt', 'node_modules/spdx-license-list/licenses/AGPL-3.0.json',
      'third_party/license-list-data/text/GPL-3.0-only.txt', 'src/licensedcode/data/licenses/gpl-3.0.LICENSE',
      'vendor/spdx-exceptions/index.json', 'lib/license-list-XML/src/GPL-2.0.xml']) {
      expect(licenseScopeOf(file), file).toBe('licence-data');
    }
  });

  it('puts licence texts and mentions inside data files apart, but not manifests or a data file\'s own notice', () => {
    for (const file of ['data/licenses.json', 'db/seed.sql', 'crawl/packages.csv', 'exports/items.ndjson', 'assets/catalogue.xml', 'stats.tsv']) {
      expect(licenseScopeOf(file, 'text'), file).toBe('data');
      expect(licenseScopeOf(file, 'reference'), file).toBe('data');
    }
    // A licence header or SPDX tag atop an XML or SQL file is that file's own notice.
    expect(licenseScopeOf('src/main/resources/beans.xml', 'header')).toBe('project');
    expect(licenseScopeOf('db/migrate.sql', 'tag')).toBe('project');
    // Manifests in data formats declare licences.
    for (const file of ['package.json', 'web/composer.json', 'pom.xml', 'src/App/App.csproj', 'pkg/App.nuspec', 'bower.json']) {
      expect(licenseScopeOf(file, 'reference'), file).toBe('project');
    }
  });

  it('classifies licence databases before tests, and only the project scope counts', () => {
    expect(licenseScopeOf('test/vendor/spdx-license-list/licenses.json')).toBe('licence-data');
    expect(licenseScopeOf('test/fixtures/data.json')).toBe('test');
    // The folder an archive wraps the project in is not judged by its name.
    expect(licenseScopeOf('spec/LICENSE', 'text', 'spec')).toBe('project');
    expect(licenseScopeOf('spec/test/fixtures/gpl.txt', 'text', 'spec')).toBe('test');
    expect(licenseScopeOf('spec/LICENSE')).toBe('test');
    expect(isProjectScope('project')).toBe(true);
    for (const scope of ['test', 'licence-data', 'data']) expect(isProjectScope(scope)).toBe(false);
  });
});
