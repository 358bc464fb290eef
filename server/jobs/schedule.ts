// Launches the analyses whose timing is due (spec cron types 1–6) and sets each project's next
// time. Several platform processes may tick at once: moving next_run_at forward is the claim, so
// only the process whose update matched launches the run.
import type { Kysely } from 'kysely';
import type { Timing } from '../../contract/api/task.ts';
import type { Database } from '../db/schema.ts';
import { claimTimingTurn, dueProjects } from '../db/repositories/projects.ts';
import { queueRun } from '../db/repositories/runs.ts';

import { nextRunAt } from './timing.ts';

export async function launchDueProjects(db: Kysely<Database>, now = new Date()): Promise<number> {
  const due = await dueProjects(db, now.toISOString());
  let launched = 0;
  for (const project of due) {
    const timing = JSON.parse(project.timing) as Timing;
    const next = nextRunAt(timing, now, new Date(project.updated_at))?.toISOString() ?? null;
    if (!(await claimTimingTurn(db, project.id, project.next_run_at!, next))) continue;
    // A project still analysing from last time skips this turn (queueRun refuses a second run).
    const run = await queueRun(db, { projectId: project.id, analysisModes: project.analysis_modes, trigger: 'timing', userId: project.created_by, outboundLicense: project.outbound_license });
    if (run) launched++;
  }
  return launched;
}
