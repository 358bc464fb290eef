// The import lane: queued jobs and mirror syncs' imports take turns, one at a time, in the order
// they asked, and a failed turn does not block the next.
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/schema.ts';
import { ImportQueue } from '../../../../server/kb/import-queue.ts';

const silent = { info() {}, warn() {}, error() {} };

describe('ImportQueue.exclusive', () => {
  it('runs one import at a time, in order, past a failure', async () => {
    const queue = new ImportQueue({} as Kysely<Database>, silent);
    const events: string[] = [];
    let release!: () => void;
    const first = queue.exclusive(async () => {
      events.push('first:start');
      await new Promise<void>((resolve) => { release = resolve; });
      events.push('first:end');
      return 1;
    });
    const failing = queue.exclusive(async () => {
      events.push('failing');
      throw new Error('broken zip');
    });
    const third = queue.exclusive(async () => {
      events.push('third');
      return 3;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toEqual(['first:start']);
    release();
    expect(await first).toBe(1);
    await expect(failing).rejects.toThrow('broken zip');
    expect(await third).toBe(3);
    expect(events).toEqual(['first:start', 'first:end', 'failing', 'third']);
  });
});
