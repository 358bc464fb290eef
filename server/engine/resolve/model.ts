// What resolving one manifest online gives: its components (the declared ones with the versions
// chosen, and everything they pull in), the roots, and what could not be resolved.
import type { Component, Evidence } from '../model.ts';
import { repositoryLabel, type Repository } from './http.ts';

export interface TargetResolution {
  components: Component[];
  roots: string[];
  /** In Chinese, each naming the package and the repository. */
  problems: string[];
  /** Components whose version or dependencies came from a repository. */
  resolved: number;
}

/** The mark of a component found by online resolution: the manifest, and the repository it was resolved from. */
export function onlineEvidence(file: string, repo: Repository): Evidence {
  return { file, rule: '在线解析', text: `从 ${repositoryLabel(repo)} 在线解析` };
}
