import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allExtractors } from '../../../../server/engine/extractors/index.ts';
import { extractors } from '../../../../server/engine/extractors/wordpress/index.ts';
import { headerField, pluginTarget } from '../../../../server/engine/extractors/wordpress/plugins.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { normalizePurl } from '../../../../server/engine/extractors/sbom/common.ts';
import { lookupEcosystem } from '../../../../server/engine/extractors/excel/ecosystems.ts';
import { expectClaims } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/wordpress');
const extractor = extractors[0]!;

describe('WordPress plugins', () => {
  it('claims PHP files at the top of a plugin folder and single-file plugins', () => {
    expectClaims(extractor, [
      'wp-content/plugins/akismet/akismet.php', 'site/wp-content/plugins/hello.php', 'wp-content/mu-plugins/loader.php',
    ], ['wp-content/plugins/akismet/views/config.php', 'wp-content/themes/twentytwenty/functions.php', 'wp-content/plugins/akismet/readme.txt']);
  });

  it('scans Debian\'s WordPress plugins folder: Akismet from its main file\'s header, the other PHP files passed over', async () => {
    const scan = await scanTree(path.join(FIXTURES, 'debian'), { extractors: allExtractors });
    expect(scan.problems).toEqual([]);
    expect(scan.targets.map((t) => [t.file, t.type, t.components.map((c) => [c.purl, c.name, c.version, c.licenses, c.locations[0]!.startLine])])).toEqual([
      ['wp-content/plugins/akismet/akismet.php', 'wordpress-plugin', [['pkg:wordpress/plugin/akismet@5.0.2', 'akismet', '5.0.2', ['GPLv2 or later'], 6]]],
    ]);
  });

  it('scans syft\'s plugin (a header in a doc comment, no licence)', async () => {
    const scan = await scanTree(path.join(FIXTURES, 'syft'), { extractors: allExtractors });
    expect(scan.targets.map((t) => t.components.map((c) => [c.purl, c.licenses]))).toEqual([[['pkg:wordpress/plugin/all-in-one-wp-migration@7.78', []]]]);
  });

  it('a header without a version takes the readme\'s stable tag; single-file plugins are named by their file', () => {
    const t = pluginTarget('<?php\n/*\nPlugin Name: Demo\n*/', 'wp-content/plugins/demo/demo.php', '=== Demo ===\nStable tag: 1.4.2\nLicense: GPLv2\n')!;
    expect(t.components.map((c) => [c.purl, c.licenses])).toEqual([['pkg:wordpress/plugin/demo@1.4.2', ['GPLv2']]]);
    const hello = pluginTarget('<?php\n/**\n * @package Hello_Dolly\n * @version 1.7.2\n */\n/*\nPlugin Name: Hello Dolly\nVersion: 1.7.2\n*/', 'wp-content/plugins/hello.php')!;
    expect(hello.components[0]!.purl).toBe('pkg:wordpress/plugin/hello@1.7.2');
    expect(headerField(' * Version: 2.0 */', 'Version')).toBe('2.0');
    expect(pluginTarget('<?php echo 1;', 'wp-content/plugins/x/x.php')).toBeNull();
  });

  it('an SBOM or a component list naming a plugin gives the same component', () => {
    expect(normalizePurl('pkg:wordpress/plugin/akismet@5.0.2')).toMatchObject({ ecosystem: 'wordpress', name: 'akismet', version: '5.0.2' });
    expect(lookupEcosystem('WordPress')).toMatchObject({ type: 'wordpress', namespace: 'plugin' });
  });
});
