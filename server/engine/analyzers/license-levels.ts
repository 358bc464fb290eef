// Licence level: each component's declared licence expression rated at the administrators' levels.
// AND takes the strictest licence, OR the freest the user may choose; unknown licences alone leave
// it 未知 (16).
import type { ComponentAnalyzer } from './model.ts';

export const licenseLevelAnalyzer: ComponentAnalyzer = {
  kind: 'component',
  name: 'license-levels',
  mode: null,
  async analyse(components, { licenseLevels }) {
    const { expressionLevel } = await import('../matchers/licenses/expression.ts');
    const { LEVEL_UNKNOWN } = await import('../matchers/licenses/knowledge.ts');
    return components.map((c) => ({
      licenseLevel: c.licenseExpression ? expressionLevel(c.licenseExpression, (id) => licenseLevels.get(id) ?? LEVEL_UNKNOWN) : LEVEL_UNKNOWN,
    }));
  },
};
