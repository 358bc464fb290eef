import type { Kysely, Migration } from 'kysely';
import type { DatabaseKind } from '../connect.ts';

/**
 * kb_id_map.cnnvd_level: the CNNVD level (1 超危, 2 高危, 4 中危, 8 低危) a mapping file gives a CVE,
 * used when no advisory of the flaw has a CVSS vector or a stated severity.
 *
 * run_vulnerabilities.severity_source: which knowledge-base source set a finding's level when it
 * was analysed (`CVSS:3.1 NVD 9.8`, `GHSA 数据库评级 HIGH`, `系统漏洞库 人工评级 高危`; issue 14,
 * item 2), shown in the finding's detail. Empty for an unrated finding (level 16, 未评级) and for
 * findings analysed before this migration, until the project is analysed again.
 */
export const findingSeveritySource = (_kind: DatabaseKind): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('kb_id_map').addColumn('cnnvd_level', 'integer').execute();
    await db.schema.alterTable('run_vulnerabilities').addColumn('severity_source', 'text', (c) => c.notNull().defaultTo('')).execute();
  },
});
