// The one set of migrations, run on SQLite and PostgreSQL alike by Kysely's Migrator.
//
// To add one:
//   1. Create NNNN_what_it_does.ts in this folder, NNNN the next number (0008, 0009, ...),
//      exporting a `(kind: DatabaseKind) => Migration`. Take dialect-dependent column types
//      (ids, timestamps, JSON, flags) from columns.ts.
//   2. Register it in migrationsFor below, last, under its file name without `.ts`.
//   3. Describe its tables and columns in ../schema.ts. The integration tests fail until the
//      file is registered under its name and the types match what the database has, on SQLite
//      and PostgreSQL (tests/integration/server/migrations.test.ts and schema.test.ts).
// Kysely records each applied migration by name and refuses a database whose recorded names are
// missing or out of order: never rename, reorder, edit or remove a shipped migration; correct
// it with the next one.
import { Migrator, type Kysely, type Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';
import { foundation } from './0001_foundation.ts';
import { knowledgeBase } from './0002_knowledge_base.ts';
import { knowledgeBaseListOrder } from './0003_knowledge_base_list_order.ts';
import { licenseCatalogue } from './0004_license_catalogue.ts';
import { projects } from './0005_projects.ts';
import { reports } from './0006_reports.ts';
import { historyRisks } from './0007_history_risks.ts';
import { subjectTypes } from './0008_subject_types.ts';
import { loginLockout } from './0009_login_lockout.ts';
import { knowledgeBaseListIndexes } from './0010_knowledge_base_list_indexes.ts';
import { licenceScope } from './0011_licence_scope.ts';
import { kbImportFiles } from './0012_kb_import_files.ts';
import { findingSeveritySource } from './0013_finding_severity_source.ts';
import { licenceEvidence } from './0014_licence_evidence.ts';
import { imageLayers } from './0015_image_layers.ts';
import { fixState } from './0016_fix_state.ts';
import { declaredConstraint } from './0017_declared_constraint.ts';
import { binaryEvidence } from './0018_binary_evidence.ts';
import { scanRepositories } from './0019_scan_repositories.ts';
import { leaks } from './0020_leaks.ts';
import { accessModel } from './0021_access_model.ts';
import { ldapConfig } from './0022_ldap_config.ts';
import { personalTokens } from './0023_personal_tokens.ts';
import { accessRules } from './0024_access_rules.ts';
import { userAdmin } from './0025_user_admin.ts';
import { roleRemark } from './0026_role_remark.ts';

/** Every migration by name, in the order they run. */
export const migrationsFor = (kind: DatabaseKind): Record<string, Migration> => ({
  '0001_foundation': foundation(kind),
  '0002_knowledge_base': knowledgeBase(kind),
  '0003_knowledge_base_list_order': knowledgeBaseListOrder(kind),
  '0004_license_catalogue': licenseCatalogue(kind),
  '0005_projects': projects(kind),
  '0006_reports': reports(kind),
  '0007_history_risks': historyRisks(kind),
  '0008_subject_types': subjectTypes(kind),
  '0009_login_lockout': loginLockout(kind),
  '0010_knowledge_base_list_indexes': knowledgeBaseListIndexes(kind),
  '0011_licence_scope': licenceScope(kind),
  '0012_kb_import_files': kbImportFiles(kind),
  '0013_finding_severity_source': findingSeveritySource(kind),
  '0014_licence_evidence': licenceEvidence(kind),
  '0015_image_layers': imageLayers(kind),
  '0016_fix_state': fixState(kind),
  '0017_declared_constraint': declaredConstraint(kind),
  '0018_binary_evidence': binaryEvidence(kind),
  '0019_scan_repositories': scanRepositories(kind),
  '0020_leaks': leaks(kind),
  '0021_access_model': accessModel(),
  '0022_ldap_config': ldapConfig(kind),
  '0023_personal_tokens': personalTokens(kind),
  '0024_access_rules': accessRules(kind),
  '0025_user_admin': userAdmin(kind),
  '0026_role_remark': roleRemark(),
});

export async function migrateToLatest(db: Kysely<any>, kind: DatabaseKind): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrationsFor(kind) } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`数据库迁移失败${failed ? `（${failed.migrationName}）` : ''}`, { cause: error });
  }
}
