import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExtractError } from '../../../../server/engine/model.ts';
import { scanTree } from '../../../../server/engine/scan.ts';
import { normalizePackageName } from '../../../../server/engine/matchers/advisory.ts';
import { buildAdvisoryIndex, matchPackage } from '../../../../server/engine/matchers/vulnerabilities.ts';
import { mapOsvEcosystem } from '../../../../server/kb/formats/osv.ts';
import { purlTypeOfOsvEcosystem } from '../../../../contract/ecosystems.ts';
import { extractors } from '../../../../server/engine/extractors/githubactions/index.ts';
import { parseUses, parseWorkflowOrAction } from '../../../../server/engine/extractors/githubactions/workflows.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/githubactions');
const extractor = extractors[0]!;
const rows = (t: { components: { name: string; version: string; purl: string; direct: boolean; scope: string; dependsOn: string[]; locations: { startLine?: number }[] }[] }) =>
  t.components.map((c) => [c.name, c.version, c.purl, c.direct, c.scope, c.dependsOn, c.locations.map((l) => l.startLine)]);

describe('GitHub Actions workflows and composite actions', () => {
  it('claims workflow files directly in .github/workflows and action metadata files', () => {
    expectClaims(extractor,
      ['.github/workflows/ci.yml', '.github/workflows/release.yaml', 'sub/.github/workflows/x.yml', 'action.yml', '.github/actions/setup/action.yaml'],
      ['.github/workflows/README.md', '.github/workflows/templates/ci.yml', '.github/dependabot.yml', 'workflows/ci.yml', 'my-action.yml', 'action.json']);
  });

  it('reads a project\'s workflow: each step\'s action, run steps passed over', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'cloudflare-terraform-infra'), '.github/workflows/terraform.yml');
    expect(t.type).toBe('githubactions');
    expect(t.ecosystem).toBe('githubactions');
    expect(rows(t)).toEqual([
      ['actions/checkout', 'v2', 'pkg:githubactions/actions/checkout@v2', true, 'development', [], [14]],
      ['aws-actions/configure-aws-credentials', 'v1', 'pkg:githubactions/aws-actions/configure-aws-credentials@v1', true, 'development', [], [17]],
      ['hashicorp/setup-terraform', 'v1', 'pkg:githubactions/hashicorp/setup-terraform@v1', true, 'development', [], [24]],
      ['actions/github-script', 'v3', 'pkg:githubactions/actions/github-script@v3', true, 'development', [], [46]],
    ]);
    expect(t.roots).toEqual(t.components.map((c) => c.purl));
  });

  it('a SHA-pinned action takes the version of its line comment, as syft does; a reusable workflow is a component; a local action is not', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'syft'), '.github/workflows/workflow-with-version-comments.yaml');
    expect(rows(t)).toEqual([
      ['octo-org/this-repo/.github/workflows/workflow-1.yml', 'v1.0.0', 'pkg:githubactions/octo-org/this-repo%2F.github%2Fworkflows%2Fworkflow-1.yml@v1.0.0', true, 'development', [], [16]],
      ['actions/checkout', 'v4.2.2', 'pkg:githubactions/actions/checkout@v4.2.2', true, 'development', [], [22]],
    ]);
  });

  it('reusable workflows of jobs: a SHA without a comment stays the version; ./ workflows are left out', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'syft'), '.github/workflows/call-shared-workflow.yaml');
    expect(rows(t).map((r) => [r[0], r[1], r[2], r[6]])).toEqual([
      ['octo-org/this-repo/.github/workflows/workflow-1.yml', '172239021f7ba04fe7327647b213799853a9eb89', 'pkg:githubactions/octo-org/this-repo%2F.github%2Fworkflows%2Fworkflow-1.yml@172239021f7ba04fe7327647b213799853a9eb89', [4]],
      ['octo-org/another-repo/.github/workflows/workflow.yml', 'v1', 'pkg:githubactions/octo-org/another-repo%2F.github%2Fworkflows%2Fworkflow.yml@v1', [10]],
      ['actions/checkout', 'v4', 'pkg:githubactions/actions/checkout@v4', [16]],
    ]);
  });

  it('a composite action\'s steps; one component per action and ref, each use a location', async () => {
    const t = await extractFile(extractor, path.join(FIXTURES, 'syft'), '.github/actions/bootstrap/action.yaml');
    expect(rows(t)).toEqual([
      ['actions/setup-go', 'v4', 'pkg:githubactions/actions/setup-go@v4', true, 'development', [], [27]],
      ['actions/cache', 'v3', 'pkg:githubactions/actions/cache@v3', true, 'development', [], [33, 43, 59]],
    ]);
  });

  it('scanning the repositories finds every workflow and the composite action', async () => {
    const result = await scanTree(FIXTURES, { extractors });
    expect(result.problems).toEqual([]);
    expect(result.targets.map((t) => [t.file, t.components.length]).sort()).toEqual([
      ['cloudflare-terraform-infra/.github/workflows/docs.yml', 2],
      ['cloudflare-terraform-infra/.github/workflows/terraform.yml', 4],
      ['syft/.github/actions/bootstrap/action.yaml', 2],
      ['syft/.github/workflows/call-shared-workflow.yaml', 3],
      ['syft/.github/workflows/workflow-with-version-comments.yaml', 2],
    ]);
    const docs = result.targets.find((t) => t.file.endsWith('docs.yml'))!;
    expect(docs.components.map((c) => c.purl)).toEqual(['pkg:githubactions/actions/checkout@v2', 'pkg:githubactions/peaceiris/actions-gh-pages@v3']);
  });

  it('uses: forms — sub-folder actions, case, docker and local actions, expressions', () => {
    expect(parseUses('github/codeql-action/init@v3')).toEqual({ name: 'github/codeql-action/init', version: 'v3', purl: 'pkg:githubactions/github/codeql-action%2Finit@v3' });
    expect(parseUses('Azure/Login@v2')).toEqual({ name: 'Azure/Login', version: 'v2', purl: 'pkg:githubactions/azure/login@v2' });
    expect(parseUses('actions/checkout@main')?.version).toBe('main');
    expect(parseUses('actions/checkout')).toEqual({ name: 'actions/checkout', version: '', purl: 'pkg:githubactions/actions/checkout' });
    expect(parseUses('actions/checkout@b4ffde6', 'pin: v4.1.1 (latest)')?.version).toBe('v4.1.1');
    expect(parseUses('actions/checkout@v4', '# v4.1.1')?.version).toBe('v4');
    for (const none of ['./.github/actions/x', '../shared', 'docker://alpine:3.20', 'docker://ghcr.io/o/i@sha256:abc', '${{ matrix.action }}', 'checkout@v4', '']) {
      expect(parseUses(none), none).toBeNull();
    }
  });

  it('quoted uses values with comments; non-composite actions and empty workflows', () => {
    const t = parseWorkflowOrAction(`on: push
jobs:
  a:
    steps:
      - uses: "actions/setup-node@1d0ff469b7ec7b3cb9d8673fde0c81c44821de2a" # v4.2.0
      - uses: 'docker://node:20'
      - run: echo "uses: fake/action@v1"
`, '.github/workflows/a.yml', 'workflow')!;
    expect(rows(t).map((r) => [r[0], r[1], r[6]])).toEqual([['actions/setup-node', 'v4.2.0', [5]]]);
    expect(parseWorkflowOrAction("name: n\nruns:\n  using: node20\n  main: dist/index.js\n", 'action.yml', 'action')).toBeNull();
    expect(parseWorkflowOrAction('', '.github/workflows/empty.yml', 'workflow')!.components).toEqual([]);
    expect(() => parseWorkflowOrAction('- a\n- b\n', '.github/workflows/list.yml', 'workflow')).toThrow(ExtractError);
    expect(() => parseWorkflowOrAction('jobs:\n  a: [\n', '.github/workflows/bad.yml', 'workflow')).toThrow(ExtractError);
  });

  it('OSV\'s GitHub Actions advisories meet these components: ecosystem and repository-level names', () => {
    expect(purlTypeOfOsvEcosystem('GitHub Actions')).toBe('githubactions');
    expect(normalizePackageName('githubactions', 'github/codeql-action/init')).toBe('github/codeql-action');
    expect(normalizePackageName('githubactions', 'TJ-Actions/Changed-Files')).toBe('tj-actions/changed-files');
    expect(mapOsvEcosystem('GitHub Actions')).toEqual({ ecosystem: 'githubactions', distribution: null });
  });

  it('an advisory on a repository matches its actions by release tag; a bare commit pin is placed in no range', () => {
    const index = buildAdvisoryIndex([{
      id: 'GHSA-mrrh-fwg8-r2c3', aliases: ['CVE-2025-30066'], summary: 'tj-actions/changed-files leaks secrets', level: 2, score: 8.6, vector: null, exploit: 1, cwes: [],
      published: null, modified: null, withdrawn: false,
      affected: [{ ecosystem: 'githubactions', name: 'tj-actions/changed-files', distribution: null, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '46.0.1' }] }], versions: [], vulnerable: [], patched: [], fixed: ['46.0.1'] }],
    }]);
    const match = (uses: string, comment = '') => {
      const use = parseUses(uses, comment)!;
      return matchPackage(index, { ecosystem: 'githubactions', name: use.name, version: use.version }).map((f) => f.id);
    };
    expect(match('tj-actions/changed-files@v45.0.7')).toEqual(['CVE-2025-30066']);
    expect(match('TJ-Actions/Changed-Files@v45')).toEqual(['CVE-2025-30066']);
    expect(match('tj-actions/changed-files@v46.0.1')).toEqual([]);
    expect(match('tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67', '# v45.0.7')).toEqual(['CVE-2025-30066']);
    expect(match('tj-actions/changed-files@0e58ed8671d6b60d0890c21b07f8835ace038e67')).toEqual([]);
    expect(match('tj-actions/changed-files/sub@v45.0.7')).toEqual(['CVE-2025-30066']);
  });
});
