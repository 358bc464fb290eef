// GitHub Actions: the actions and reusable workflows a repository's workflows
// (`.github/workflows/*.yml`) and composite actions (`action.yml` with `runs.using: composite`)
// use. Each `uses: owner/repo[/path]@ref` of a step, and each job-level `uses:` calling a reusable
// workflow (`owner/repo/.github/workflows/x.yml@ref`), is a component; local actions (`./…`),
// Docker images (`docker://…`) and expressions (`${{ … }}`) name no GitHub Action and are left out.
// The purl follows purl-spec's githubactions type: owner and repository lower-cased, a path inside
// the repository kept in the name (`pkg:githubactions/github/codeql-action%2Finit@v3`). The version
// is the ref as written; a commit SHA with a version in its line comment
// (`actions/checkout@11bd719… # v4.2.2`, what pinning tools write) takes that version, as syft
// does, so advisories (OSV's GitHub Actions ecosystem, versioned by tag) can match. Everything a
// workflow uses is CI tooling: direct, development scope, no edges (a workflow file says nothing of
// what an action itself uses).
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import type { YNode } from '../common/yaml-lines.ts';
import { isEmptyNode, parseLockYaml, yget, ytext } from '../common/yaml-lines.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** A workflow file GitHub runs: directly in `.github/workflows/`, `.yml` or `.yaml`. */
export function isWorkflowPath(p: string): boolean {
  const m = /(?:^|\/)\.github\/workflows\/([^/]+)$/.exec(p);
  return !!m && /\.ya?ml$/i.test(m[1]!);
}

/** An action's metadata file (only composite actions use other actions). */
export const isActionPath = (p: string): boolean => /^action\.ya?ml$/.test(baseName(p));

export interface ActionUse {
  /** `owner/repo[/path]` as written. */
  name: string;
  version: string;
  purl: string;
}

const COMMIT = /^[0-9a-f]{7,40}$/i;
const COMMENT_VERSION = /v?\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?/;

/**
 * The action or reusable workflow a `uses:` value names, or null for what is not a GitHub Action
 * (local path, Docker image, expression, no owner/repository). `comment` is the rest of the line.
 */
export function parseUses(value: string, comment = ''): ActionUse | null {
  const uses = value.trim();
  if (!uses || uses.startsWith('./') || uses.startsWith('../') || uses.startsWith('/') || /^docker:\/\//i.test(uses) || uses.includes('${{')) return null;
  const at = uses.lastIndexOf('@');
  const path = at >= 0 ? uses.slice(0, at) : uses;
  let version = at >= 0 ? uses.slice(at + 1) : '';
  const parts = path.split('/');
  if (parts.length < 2 || parts.some((p) => !p) || parts[0] === '.' || parts[0] === '..') return null;
  if (COMMIT.test(version)) {
    const tag = COMMENT_VERSION.exec(comment)?.[0];
    if (tag) version = tag;
  }
  const [owner, repo, ...rest] = parts;
  const name = [repo!.toLowerCase(), ...rest].join('/');
  const purl = purlOf('githubactions', { namespace: owner!.toLowerCase(), name, version });
  return { name: path, version, purl };
}

/** The comment after a `uses:` value on its source line (`# v4.2.2`), or ''. */
function lineComment(lines: readonly string[], line: number): string {
  const text = lines[line - 1] ?? '';
  const m = /\s#(.*)$/.exec(text.replace(/^[^:]*:\s*(["']).*?\1/, ''));
  return m ? m[1]!.trim() : '';
}

export function parseWorkflowOrAction(text: string, file: string, kind: 'workflow' | 'action'): Target | null {
  const root = parseLockYaml(text, file);
  const target: Target = { file, type: 'githubactions', ecosystem: 'githubactions', project: null, roots: [], components: [] };
  if (isEmptyNode(root ?? undefined)) return kind === 'workflow' ? target : null;
  if (root!.kind !== 'map') throw new ExtractError(`${file} 不是 GitHub Actions ${kind === 'workflow' ? '工作流' : 'action.yml'}：顶层应为映射`);
  const lines = text.split(/\r?\n/);
  const components = new Map<string, Component>();
  const add = (node: YNode | undefined) => {
    const value = ytext(node);
    if (value === undefined || node?.kind !== 'scalar') return;
    const use = parseUses(value, lineComment(lines, node.line));
    if (!use) return;
    const location = { file, startLine: node.line, endLine: node.line };
    const existing = components.get(use.purl);
    if (existing) { existing.locations.push(location); return; }
    components.set(use.purl, {
      purl: use.purl, ecosystem: 'githubactions', name: use.name, version: use.version, direct: true, scope: 'development',
      locations: [location], licenses: [], dependsOn: [],
    });
  };
  const steps = (node: YNode | undefined) => {
    if (node?.kind !== 'seq') return;
    for (const step of node.items) add(yget(step, 'uses'));
  };

  if (kind === 'workflow') {
    const jobs = yget(root!, 'jobs');
    if (jobs?.kind === 'map') {
      for (const { value: job } of jobs.entries) {
        add(yget(job, 'uses'));
        steps(yget(job, 'steps'));
      }
    }
  } else {
    const runs = yget(root!, 'runs');
    if (ytext(yget(runs, 'using'))?.toLowerCase() !== 'composite') return null;
    steps(yget(runs, 'steps'));
  }
  target.components = [...components.values()];
  target.roots = target.components.map((c) => c.purl);
  return target;
}

export const githubActionsExtractor: Extractor = {
  name: 'githubactions',
  ecosystem: 'githubactions',
  reads: ['.github/workflows/*.yml', 'action.yml'],
  matches: (p) => isWorkflowPath(p) || isActionPath(p),
  async extract(file: InputFile) {
    const kind = isWorkflowPath(file.path) ? 'workflow' : 'action';
    const target = parseWorkflowOrAction(await file.text(), file.path, kind);
    return target ? [target] : [];
  },
};
