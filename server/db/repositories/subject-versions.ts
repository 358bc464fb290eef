// Versions of a subject (subject_versions): labels projects carry (projects.version_id).
import type { VersionRow } from '../../../contract/api/subject.ts';
import { nowIso } from '../time.ts';
import { inTransaction, type Db } from '../transaction.ts';


function versionQuery(db: Db) {
  return db.selectFrom('subject_versions').select((eb) => [
    'subject_versions.id', 'subject_versions.subject_id', 'subject_versions.name', 'subject_versions.remark', 'subject_versions.created_at',
    eb.selectFrom('projects').select((e) => e.fn.countAll<number>().as('n')).whereRef('projects.version_id', '=', 'subject_versions.id').as('project_count'),
  ]);
}
type Raw = Awaited<ReturnType<ReturnType<typeof versionQuery>['executeTakeFirstOrThrow']>>;
const toVersion = (r: Raw): VersionRow => ({
  id: Number(r.id), subjectId: Number(r.subject_id), name: r.name, remark: r.remark, projectCount: Number(r.project_count ?? 0), createdAt: r.created_at,
});

export async function listVersions(db: Db, subjectId: number): Promise<VersionRow[]> {
  return (await versionQuery(db).where('subject_versions.subject_id', '=', subjectId).orderBy('subject_versions.created_at', 'desc').orderBy('subject_versions.id', 'desc').execute()).map(toVersion);
}

export async function findVersion(db: Db, id: number): Promise<VersionRow | undefined> {
  const row = await versionQuery(db).where('subject_versions.id', '=', id).executeTakeFirst();
  return row && toVersion(row);
}

export async function versionNameTaken(db: Db, subjectId: number, name: string, exceptId?: number): Promise<boolean> {
  let q = db.selectFrom('subject_versions').select('id').where('subject_id', '=', subjectId).where('name', '=', name);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function createVersion(db: Db, subjectId: number, name: string, remark: string): Promise<number> {
  const { id } = await db.insertInto('subject_versions').values({ subject_id: subjectId, name, remark, created_at: nowIso() }).returning('id').executeTakeFirstOrThrow();
  return Number(id);
}

export async function updateVersion(db: Db, id: number, name: string, remark: string): Promise<void> {
  await db.updateTable('subject_versions').set({ name, remark }).where('id', '=', id).execute();
}

/**
 * Deletes the version. Projects labelled with it keep their runs and results and simply lose
 * the label (projects.version_id is set null, explicitly here and by the foreign key).
 */
export async function deleteVersion(db: Db, id: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    const detached = await trx.updateTable('projects').set({ version_id: null }).where('version_id', '=', id).executeTakeFirst();
    await trx.deleteFrom('subject_versions').where('id', '=', id).execute();
    return Number(detached.numUpdatedRows);
  });
}
