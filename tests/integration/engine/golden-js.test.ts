// The JavaScript lockfile extractors against trivy's goldens for its npm, yarn, pnpm and bun
// fixture projects (package F1 >= 0.98, dependency-edge F1 >= 0.95).
import { describe, it } from 'vitest';
import { loadExtractors } from '../../../server/engine/index.ts';
import { expectGolden } from '../../support/golden-check.ts';

const { npm, yarn, pnpm, bun } = (await loadExtractors()).families;

describe('JavaScript 锁文件与 trivy 金标准一致', () => {
  it('npm（不含开发依赖）', () => expectGolden({ golden: 'npm.json.golden', repo: 'npm' }, npm));
  it('npm（含开发依赖）', () => expectGolden({ golden: 'npm-with-dev.json.golden', repo: 'npm', includeDev: true }, npm));
  it('yarn', () => expectGolden({ golden: 'yarn.json.golden', repo: 'yarn' }, yarn));
  it('pnpm', () => expectGolden({ golden: 'pnpm.json.golden', repo: 'pnpm' }, pnpm));
  it('bun', () => expectGolden({ golden: 'bun.json.golden', repo: 'bun' }, bun));
});
