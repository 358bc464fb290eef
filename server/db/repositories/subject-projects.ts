// Repository facts of a subject's projects, read from projects.source (the new-project form's
// fields: svnGitUri, gitBranchName, ftpIp, ...). Secrets in there are never read out.
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { parseJson } from './subjects.ts';

export interface ProjectSource {
  getCodeType: number;
  source: Record<string, unknown>;
}

export async function projectSources(db: Kysely<Database>, subjectId: number): Promise<ProjectSource[]> {
  const rows = await db.selectFrom('projects').select(['get_code_type', 'source']).where('subject_id', '=', subjectId).orderBy('id').execute();
  return rows.map((r) => ({ getCodeType: Number(r.get_code_type), source: parseJson<Record<string, unknown>>(r.source, {}) }));
}

export const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** Counts rows by key, keeping the first row's values: small de-duplicated payloads. */
export function countBy<T extends object>(rows: T[], key: (row: T) => string): Array<T & { projectCount: number }> {
  const out = new Map<string, T & { projectCount: number }>();
  for (const row of rows) {
    const k = key(row);
    const seen = out.get(k);
    if (seen) seen.projectCount += 1;
    else out.set(k, { ...row, projectCount: 1 });
  }
  return [...out.values()];
}
