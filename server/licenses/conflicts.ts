// The verdict of a component's licence against a project's outbound licence, as the licence
// conflict tab, the overview's figures and the reports all give it, with who decided it (`source`:
// the OSADL compatibility matrix first, Cairn's own rules for the rest; see the engine's conflicts.ts).
import type { ConflictRow } from '../../contract/api/result/index.ts';
import { checkCompatibility, expressionIds, OSADL_MATRIX_DATE } from '../engine/index.ts';

/** The version (date) of the OSADL matrix the verdicts come from (resources/osadl). */
export const OSADL_VERSION = OSADL_MATRIX_DATE;

const NO_OUTBOUND = '项目未设置许可证，无法判断兼容性；请在项目设置中填写项目的出站许可证后重新检测';
const NO_DECLARED = '组件未声明许可证，无法判断兼容性';

export type ConflictVerdict = Omit<ConflictRow, 'componentId' | 'name' | 'version' | 'purl' | 'licenseExpression'>;

const cache = new Map<string, ConflictVerdict>();

/** The verdict of one component licence against the outbound licence (memoised: few distinct pairs). */
export function conflictOf(outbound: string | null, inbound: string | null): ConflictVerdict {
  if (!outbound) return { verdict: 'unknown', explanation: NO_OUTBOUND, chosen: null, conflicting: [], source: 'cairn' };
  if (!inbound) return { verdict: 'unknown', explanation: NO_DECLARED, chosen: null, conflicting: [], source: 'cairn' };
  const key = `${outbound}\u0000${inbound}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const r = checkCompatibility(outbound, inbound);
  let conflicting: string[] = [];
  if (r.verdict === 'incompatible') {
    const ids = expressionIds(inbound);
    conflicting = ids.length > 1 ? ids.filter((id) => checkCompatibility(outbound, id).verdict === 'incompatible') : ids;
  }
  const out = { verdict: r.verdict, explanation: r.explanation, chosen: r.chosen ?? null, conflicting, source: r.source };
  if (cache.size > 5000) cache.clear();
  cache.set(key, out);
  return out;
}
