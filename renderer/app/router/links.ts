// The URLs of screens that other features link to (a feature never imports another one), such as
// the analysis details a dashboard row opens, and the query helper they are built with. Pure,
// tested in Node.

/** A copy of `params` with `changes` applied (undefined/'' remove a key). Keeps unrelated keys. */
export function withParams(params: URLSearchParams, changes: Record<string, string | number | undefined>): URLSearchParams {
  const out = new URLSearchParams(params);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === '') out.delete(k);
    else out.set(k, String(v));
  }
  return out;
}

/** The details URL of a project (optionally a run and a tab). */
export function detailsUrl(projectId: number, extra: Record<string, string | number | undefined> = {}): string {
  const q = withParams(new URLSearchParams(), { projectId, ...extra });
  return `/project/analysis/details?${q.toString()}`;
}
