import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { allExtractors } from '../../../../server/engine/extractors/index.ts';
import { extractors } from '../../../../server/engine/extractors/brew/index.ts';
import { formulaLicenses, parseBrewfileLock, parseReceipt } from '../../../../server/engine/extractors/brew/brew.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/brew');
const extractor = extractors[0]!;

describe('Homebrew', () => {
  it('claims keg receipts, keg formula files and Brewfile locks', () => {
    expectClaims(extractor, [
      'opt/homebrew/Cellar/jq/1.7.1/INSTALL_RECEIPT.json', 'usr/local/Cellar/openssl@3/3.1.0_1/.brew/openssl@3.rb', 'Brewfile.lock.json',
    ], ['Cellar/jq/INSTALL_RECEIPT.json', 'Cellar/jq/1.7.1/.brew/other.rb', 'Brewfile', 'Library/Taps/x/y/Formula/jq.rb']);
  });

  it('scans a Cellar: the receipt\'s formula with its runtime dependency; kegs with only a formula file, with their licences', async () => {
    const scan = await scanTree(path.join(FIXTURES, 'opt'), { extractors: allExtractors });
    const brew = scan.targets.filter((t) => t.ecosystem === 'brew');
    expect(brew.map((t) => [t.type, t.components.map((c) => [c.purl, c.direct, c.licenses, c.dependsOn])])).toEqual([
      ['brew-formula', [['pkg:brew/foo@1.2.3', true, ['Apache 2.0'], []]]],
      ['brew-formula', [['pkg:brew/syft@1.23.1', true, ['Apache License 2.0'], []]]],
      ['brew-receipt', [['pkg:brew/test-formula@2.14', true, [], ['pkg:brew/foo@1.0']]]],
    ]);
    expect(scan.problems).toEqual([]);
  });

  it('reads Brewfile locks of both bottle layouts', async () => {
    const a = await extractFile(extractor, path.join(FIXTURES, 'swiftlint'), 'Brewfile.lock.json');
    expect(a.type).toBe('brewfile-lock');
    expect(a.components.map((c) => [c.purl, c.direct, c.locations[0]!.startLine])).toEqual([['pkg:brew/swiftlint@0.40.3', true, 4]]);
    const b = await extractFile(extractor, path.join(FIXTURES, 'screenreaders'), 'Brewfile.lock.json');
    expect(b.components.map((c) => [c.purl, c.locations[0]!.startLine])).toEqual([['pkg:brew/cliclick@4.0.1', 4], ['pkg:brew/pidof@0.1.4', 33]]);
  });

  it('a receipt of a dependency; revisions and tap-qualified names; casks passed over', () => {
    const r = parseReceipt('{"installed_as_dependency": true, "runtime_dependencies": [{"full_name": "homebrew/core/ca-certificates", "version": "2024.2.2"}]}', 'Cellar/openssl@3/3.2.1_1/INSTALL_RECEIPT.json');
    expect(r.components.map((c) => [c.purl, c.direct, c.dependsOn])).toEqual([['pkg:brew/openssl%403@3.2.1', false, ['pkg:brew/ca-certificates@2024.2.2']]]);
    expect(r.roots).toEqual([]);
    const t = parseBrewfileLock('{"entries": {"brew": {"homebrew/core/openssl@3": {"version": "3.1.0_1"}}, "cask": {"firefox": {"version": "120.0"}}}}', 'Brewfile.lock.json');
    expect(t.components.map((c) => [c.purl, c.name, c.version])).toEqual([['pkg:brew/openssl%403@3.1.0', 'openssl@3', '3.1.0']]);
  });

  it('licence declarations of formula files', () => {
    expect(formulaLicenses('class X < Formula\n  license "MIT"\nend')).toEqual(['MIT']);
    expect(formulaLicenses('  license any_of: ["MIT", "Apache-2.0"]')).toEqual(['MIT OR Apache-2.0']);
    expect(formulaLicenses('  license all_of: ["BSD-3-Clause", "GPL-2.0-only"]')).toEqual(['BSD-3-Clause AND GPL-2.0-only']);
    expect(formulaLicenses('  license :public_domain')).toEqual(['LicenseRef-public-domain']);
    expect(formulaLicenses('desc "none"')).toEqual([]);
  });

  it('malformed files', () => {
    expect(() => parseBrewfileLock('{', 'Brewfile.lock.json')).toThrow(ExtractError);
    expect(() => parseBrewfileLock('{"system": {}}', 'Brewfile.lock.json')).toThrow(/entries/);
  });
});
