// Retention audit (spec: 保留审计, on by default): a new run of a project inherits the audit of the
// previous successful run — component marks by purl, vulnerability marks, custom levels and VEX
// statements by purl + vulnerability id — so analysts never review the same finding twice.
import type { Transaction } from 'kysely';
import { TASK_STATUS } from '../../contract/enums.ts';
import type { Database } from '../db/schema.ts';

const updateOf = (trx: Transaction<Database>) => trx.updateTable('run_vulnerabilities');

export async function carryMarks(trx: Transaction<Database>, run: { id: number; project_id: number }): Promise<{ components: number; vulnerabilities: number }> {
  const previous = await trx.selectFrom('runs').select('id')
    .where('project_id', '=', run.project_id).where('status', '=', TASK_STATUS.SUCCEEDED).where('id', '<>', run.id)
    .orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!previous) return { components: 0, vulnerabilities: 0 };

  const marked = await trx.selectFrom('run_components').select(['purl', 'mark', 'mark_remark'])
    .where('run_id', '=', previous.id).where('mark', '<>', 'N').execute();
  let components = 0;
  for (const m of marked) {
    const r = await trx.updateTable('run_components').set({ mark: m.mark, mark_remark: m.mark_remark })
      .where('run_id', '=', run.id).where('purl', '=', m.purl).executeTakeFirst();
    components += Number(r.numUpdatedRows);
  }

  const audited = await trx.selectFrom('run_vulnerabilities as v')
    .innerJoin('run_components as c', 'c.id', 'v.component_id')
    .select(['c.purl', 'v.vul_id', 'v.mark', 'v.mark_remark', 'v.vex', 'v.vex_remark', 'v.level', 'v.original_level', 'v.level_remark'])
    .where('v.run_id', '=', previous.id)
    .where((eb) => eb.or([eb('v.mark', '<>', 0), eb('v.vex', '<>', 0), eb('v.level', '<>', eb.ref('v.original_level'))]))
    .execute();
  let vulnerabilities = 0;
  for (const a of audited) {
    const sameFinding = (q: ReturnType<typeof updateOf>) => q
      .where('run_id', '=', run.id).where('vul_id', '=', a.vul_id)
      .where('component_id', 'in', (eb) => eb.selectFrom('run_components').select('id').where('run_id', '=', run.id).where('purl', '=', a.purl));
    const r = await sameFinding(updateOf(trx).set({ mark: a.mark, mark_remark: a.mark_remark, vex: a.vex, vex_remark: a.vex_remark })).executeTakeFirst();
    // A custom level only stands while the knowledge still gives the level it overrode.
    if (a.level !== a.original_level) {
      await sameFinding(updateOf(trx).set({ level: a.level, level_remark: a.level_remark })).where('original_level', '=', a.original_level).execute();
    }
    vulnerabilities += Number(r.numUpdatedRows);
  }
  return { components, vulnerabilities };
}
