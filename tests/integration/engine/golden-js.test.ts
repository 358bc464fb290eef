// The JavaScript lockfile extractors against trivy's goldens for its npm, yarn, pnpm and bun
// fixture projects (package F1 >= 0.98, dependency-edge F1 >= 0.95).
import { describe, it } from 'vitest';
import { expectGolden } from '../../support/golden-check.ts';
import { extractors as npm } from '../../../server/engine/extractors/npm/index.ts';
import { extractors as yarn } from '../../../server/engine/extractors/yarn/index.ts';
import { extractors as pnpm } from '../../../server/engine/extractors/pnpm/index.ts';
import { extractors as bun } from '../../../server/engine/extractors/bun/index.ts';

describe('JavaScript 锁文件与 trivy 金标准一致', () => {
  it('npm（不含开发依赖）', () => expectGolden({ golden: 'npm.json.golden', repo: 'npm' }, npm));
  it('npm（含开发依赖）', () => expectGolden({ golden: 'npm-with-dev.json.golden', repo: 'npm', includeDev: true }, npm));
  it('yarn', () => expectGolden({ golden: 'yarn.json.golden', repo: 'yarn' }, yarn));
  it('pnpm', () => expectGolden({ golden: 'pnpm.json.golden', repo: 'pnpm' }, pnpm));
  it('bun', () => expectGolden({ golden: 'bun.json.golden', repo: 'bun' }, bun));
});
