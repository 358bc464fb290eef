// Small guards for walking parsed manifests and lockfiles as plain values (JSON.parse, the plain
// results of common/json-positions and common/yaml-lines).

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An object field that is itself an object of strings (dependencies maps), else {}. */
export function stringMap(v: unknown): Record<string, string> {
  if (!isObject(v)) return {};
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}
