// An import cut off by a stopped platform (running or still queued) is closed as 导入失败 at the
// next start, with a message saying why; finished and cancelled records are left alone.
import { describe, expect, it } from 'vitest';
import { nowIso } from '../../../server/db/time.ts';
import { failInterruptedImports } from '../../../server/kb/import.ts';
import { databases } from '../server/harness.ts';
import { openKb } from './helpers.ts';

describe.each(databases)('中断的导入（$name）', (database) => {
  it('启动时把停留在导入中的记录标为导入失败', async () => {
    const kb = await openKb(database);
    try {
      const insert = (status: number) => kb.db.insertInto('kb_import_records')
        .values({ kind: 'osv', name: 'PyPI.zip', status, errors: '[]', created_at: nowIso() })
        .returning('id').executeTakeFirstOrThrow();
      const running = await insert(1);
      const done = await insert(2);
      const queued = await insert(4);
      const cancelled = await insert(5);
      expect(await failInterruptedImports(kb.db)).toBe(2);
      const rows = await kb.db.selectFrom('kb_import_records').select(['id', 'status', 'message', 'finished_at']).orderBy('id').execute();
      expect(rows.find((r) => r.id === running.id)).toMatchObject({ status: 3, message: '平台在导入过程中停止，导入未完成，请重新导入' });
      expect(rows.find((r) => r.id === running.id)!.finished_at).toBeTruthy();
      expect(rows.find((r) => r.id === done.id)).toMatchObject({ status: 2, message: '' });
      // A job still waiting its turn (排队中) lived in the stopped process's queue: it will not run either.
      expect(rows.find((r) => r.id === queued.id)).toMatchObject({ status: 3, message: '平台在导入过程中停止，导入未完成，请重新导入' });
      expect(rows.find((r) => r.id === cancelled.id)).toMatchObject({ status: 5 });
      expect(await failInterruptedImports(kb.db)).toBe(0);
    } finally {
      await kb.close();
    }
  });
});
