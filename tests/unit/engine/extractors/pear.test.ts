import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { allExtractors } from '../../../../server/engine/extractors/index.ts';
import { extractors } from '../../../../server/engine/extractors/pear/index.ts';
import { registryTarget } from '../../../../server/engine/extractors/pear/registry.ts';
import { unserializePhp } from '../../../../server/engine/extractors/pear/php-serialize.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { expectClaims } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/pear');
const extractor = extractors[0]!;

describe('PEAR / PECL registry', () => {
  it('claims registry files of the default and other channels', () => {
    expectClaims(extractor, ['usr/share/php/.registry/pear.reg', 'php/.registry/.channel.pecl.php.net/memcached.reg', '.registry/.channel.__uri/x.reg'], [
      'usr/share/php/.channels/pear.php.net.reg', 'php/registry/pear.reg', '.registry/pear.txt',
    ]);
  });

  it('reads Debian\'s php-pear registry: each package with its licence, PEAR\'s required packages as edges to their installed versions', async () => {
    const scan = await scanTree(path.join(FIXTURES, 'php-pear'), { extractors: allExtractors });
    expect(scan.problems).toEqual([]);
    expect(scan.targets.map((t) => t.components.map((c) => [c.purl, c.ecosystem, c.licenses, c.dependsOn])).flat()).toEqual([
      ['pkg:pear/Archive_Tar@1.4.14', 'pear', ['New BSD License'], []],
      ['pkg:pear/Console_Getopt@1.4.3', 'pear', ['BSD-2-Clause'], []],
      ['pkg:pear/PEAR_Manpages@1.10.0', 'pear', ['New BSD License'], []],
      ['pkg:pear/PEAR@1.10.13', 'pear', ['New BSD License'], ['pkg:pear/Archive_Tar@1.4.14', 'pkg:pear/Structures_Graph@1.1.1', 'pkg:pear/Console_Getopt@1.4.3', 'pkg:pear/XML_Util@1.4.5']],
      ['pkg:pear/Structures_Graph@1.1.1', 'pear', ['LGPL-3.0+'], []],
      ['pkg:pear/XML_Util@1.4.5', 'pear', ['BSD License'], []],
    ]);
  });

  it('reads syft\'s PECL memcached files of both registry formats (the older one names no channel: its folder does)', async () => {
    for (const dir of ['syft', 'syft-v5']) {
      const scan = await scanTree(path.join(FIXTURES, dir), { extractors: allExtractors });
      expect(scan.targets.map((t) => [t.type, t.ecosystem, t.components.map((c) => [c.purl, c.name, c.version, c.licenses])]), dir).toEqual([
        ['pear-registry', 'pecl', [['pkg:pecl/memcached@3.2.0', 'memcached', '3.2.0', ['PHP License']]]],
      ]);
    }
  });

  it('private channels keep their repository; strings are counted in bytes', async () => {
    const reg = 'a:3:{s:4:"name";s:3:"Foo";s:7:"channel";s:15:"pear.example.cn";s:7:"version";a:1:{s:7:"release";s:5:"1.0.0";}}';
    const t = await registryTarget(Buffer.from(reg), '.registry/.channel.pear.example.cn/foo.reg');
    expect(t.components[0]!.purl).toBe('pkg:pear/Foo@1.0.0?repository_url=https%3A%2F%2Fpear.example.cn');
    expect(unserializePhp(Buffer.from('a:1:{s:4:"name";s:6:"中文";}'))).toEqual(new Map([['name', '中文']]));
  });

  it('malformed registry files', async () => {
    await expect(registryTarget(Buffer.from('a:1:{s:4:"name";s:9:"short";}'), '.registry/x.reg')).rejects.toThrow(ExtractError);
    await expect(registryTarget(Buffer.from('a:0:{}'), '.registry/x.reg')).rejects.toThrow(/缺少包名/);
  });
});
