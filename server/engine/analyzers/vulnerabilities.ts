// Vulnerability matching: each component against the knowledge base's advisory index by its
// ecosystem's version rules (OS packages by their distribution release), its risk level, and the
// version to upgrade to when it has known vulnerabilities (matchers/vulnerabilities.ts).
import type { ComponentAnalyzer } from './model.ts';

export const vulnerabilityAnalyzer: ComponentAnalyzer = {
  kind: 'component',
  name: 'vulnerabilities',
  mode: null,
  async analyse(components, { advisories }) {
    const { matchComponents, recommendVersion, withDistribution } = await import('../matchers/vulnerabilities.ts');
    return matchComponents(advisories, components.map(withDistribution)).map(({ component, findings, risk }) => ({
      risk,
      findings,
      recommendVersion: findings.length ? recommendVersion(advisories, component).version : null,
    }));
  },
};
