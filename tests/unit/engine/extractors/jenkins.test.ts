import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractors } from '../../../../server/engine/extractors/jenkins/index.ts';
import { parsePluginsTxt, parsePluginsYaml } from '../../../../server/engine/extractors/jenkins/plugins.ts';
import { expectClaims, extractFile } from './extractor.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../fixtures/public/lockfiles/jenkins');
const extractor = extractors[0]!;
const row = (c: { purl: string; constraint?: string; locations: Array<{ startLine?: number }> }) => [c.purl, c.constraint, c.locations[0]!.startLine];

describe('Jenkins plugin lists', () => {
  it('claims plugins.txt and plugins.yaml', () => {
    expectClaims(extractor, ['plugins.txt', 'jenkins/plugins.yaml', 'ci/plugins.yml'], ['my-plugins.txt', 'plugins.json', 'plugins.txt.bak']);
  });

  it('reads the plugin installation manager\'s plugins.txt: every form of a line, comments passed over', async () => {
    const t = await extractFile(extractor, FIXTURES, 'plugins.txt');
    expect(t.type).toBe('jenkins-plugins');
    expect(t.components.map(row)).toEqual([
      ['pkg:maven/org.jenkins-ci.plugins/git', 'latest', 1],
      ['pkg:maven/org.jenkins-ci.plugins/job-import-plugin@2.1', undefined, 3],
      ['pkg:maven/org.jenkins-ci.plugins/docker', undefined, 6],
      ['pkg:maven/org.jenkins-ci.plugins/cloudbees-bitbucket-branch-source@2.4.4', undefined, 8],
      ['pkg:maven/org.jenkins-ci.plugins/script-security@1.56', undefined, 9],
      ['pkg:maven/org.jenkins-ci.plugins.workflow/workflow-step-api@2.19-rc289.d09828a05a74', undefined, 10],
      ['pkg:maven/org.jenkins-ci.plugins/matrix-project@1.7.1', undefined, 11],
      ['pkg:maven/org.jenkins-ci.plugins/junit', 'experimental', 13],
      ['pkg:maven/org.jenkins-ci.plugins/credentials@2.2.0', undefined, 14],
    ]);
    expect(t.components.every((c) => c.direct && c.ecosystem === 'maven')).toBe(true);
    expect(t.components[1]!.name).toBe('org.jenkins-ci.plugins:job-import-plugin');
    expect(t.roots).toHaveLength(9);
    expect(t.problems).toBeUndefined();
  });

  it('reads the same list as plugins.yaml (versions stay text: 2.1, not a number), an unversioned URL stays unversioned', async () => {
    const t = await extractFile(extractor, FIXTURES, 'plugins.yaml');
    expect(t.components.map(row)).toEqual([
      ['pkg:maven/org.jenkins-ci.plugins/git', 'latest', 4],
      ['pkg:maven/org.jenkins-ci.plugins/job-import-plugin@2.1', undefined, 7],
      ['pkg:maven/org.jenkins-ci.plugins/docker', undefined, 10],
      ['pkg:maven/org.jenkins-ci.plugins/cloudbees-bitbucket-branch-source@2.4.4', undefined, 11],
      ['pkg:maven/org.jenkins-ci.plugins/script-security@1.56', undefined, 14],
      ['pkg:maven/org.jenkins-ci.plugins.workflow/workflow-step-api@2.19-rc289.d09828a05a74', undefined, 17],
      ['pkg:maven/org.jenkins-ci.plugins/matrix-project@1.7.1', undefined, 21],
      ['pkg:maven/org.jenkins-ci.plugins/junit', 'experimental', 24],
      ['pkg:maven/org.jenkins-ci.plugins/credentials@2.2.0', undefined, 28],
      ['pkg:maven/org.jenkins-ci.plugins/blueocean', undefined, 32],
      ['pkg:maven/org.jenkins-ci.plugins/google-api-client-plugin', undefined, 33],
    ]);
  });

  it('a plugins.txt or plugins.yaml of something else is not read; a bad line is a problem', () => {
    expect(parsePluginsTxt('# nothing\n\n', 'plugins.txt')).toBeNull();
    expect(parsePluginsTxt('= vim plugins =\n', 'plugins.txt')).toBeNull();
    expect(parsePluginsYaml('plugins:\n  enabled: true\n', 'plugins.yaml')).toBeNull();
    expect(parsePluginsYaml('plugins: [\n', 'plugins.yaml')).toBeNull();
    const t = parsePluginsTxt('git:5.2.1\n=oops=\n', 'plugins.txt')!;
    expect(t.components.map((c) => c.purl)).toEqual(['pkg:maven/org.jenkins-ci.plugins/git@5.2.1']);
    expect(t.problems).toEqual(['plugins.txt 第 2 行不是“插件ID:版本”形式，已跳过']);
  });
});
