import { describe, expect, it } from 'vitest';
import { pathsFromProject } from '../../../server/engine/graph.ts';
import type { Component, Target } from '../../../server/engine/model.ts';

const c = (purl: string, dependsOn: string[] = []): Component =>
  ({ purl, ecosystem: 'npm', name: purl, version: '1', direct: false, scope: 'runtime', locations: [], licenses: [], dependsOn });

describe('pathsFromProject', () => {
  it('gives each component its shortest chain from a root, and survives cycles', () => {
    const target: Target = {
      file: 'package-lock.json', type: 'npm', ecosystem: 'npm', project: null, roots: ['a', 'd'],
      components: [c('a', ['b']), c('b', ['c', 'a']), c('c', ['b']), c('d', ['c']), c('lonely')],
    };
    const paths = pathsFromProject(target);
    expect(paths.get('a')).toEqual(['a']);
    expect(paths.get('b')).toEqual(['a', 'b']);
    expect(paths.get('c')).toEqual(['d', 'c']); // d -> c is shorter than a -> b -> c
    expect(paths.get('lonely')).toEqual(['lonely']);
  });
});
