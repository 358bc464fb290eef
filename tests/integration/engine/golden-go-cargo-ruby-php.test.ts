// The Go, Rust and PHP extractors against trivy's goldens for its gomod, cargo, composer and
// composer-vendor fixture projects (package F1 >= 0.98, dependency-edge F1 >= 0.95). The gomod
// goldens list vulnerabilities only (no packages): they are checked for a clean scan here and for
// each vulnerable package in tests/unit/engine/extractors/golang.test.ts. trivy has no Ruby
// fixture project; Ruby is covered by unit tests.
import { describe, it } from 'vitest';
import { loadExtractors } from '../../../server/engine/index.ts';
import { expectGolden } from '../../support/golden-check.ts';

const { golang, cargo, composer, ruby } = (await loadExtractors()).families;

const all = [...golang, ...cargo, ...composer, ...ruby];

describe('Go、Rust、PHP 锁文件与 trivy 金标准一致', () => {
  it('Cargo.lock', () => expectGolden({ golden: 'cargo.lock.json.golden', repo: 'cargo' }, cargo));
  it('composer.lock', () => expectGolden({ golden: 'composer.lock.json.golden', repo: 'composer' }, composer));
  it('composer installed.json', () => expectGolden({ golden: 'composer.vendor.json.golden', repo: 'composer-vendor' }, composer));
  it('go.mod', () => expectGolden({ golden: 'gomod.json.golden', repo: 'gomod' }, golang));
  it('all four ecosystems together on each fixture', async () => {
    await expectGolden({ golden: 'cargo.lock.json.golden', repo: 'cargo' }, all);
    await expectGolden({ golden: 'composer.lock.json.golden', repo: 'composer' }, all);
    await expectGolden({ golden: 'composer.vendor.json.golden', repo: 'composer-vendor' }, all);
  });
});
