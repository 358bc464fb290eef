// The matcher's index cache: built once, rebuilt after a write of this process at once, and after
// another process's write once its stamp is read again (at once for an analysis, within a few
// seconds for screens).
import { describe, expect, it } from 'vitest';
import { osvRecord } from '../../../server/kb/formats/osv.ts';
import { getAdvisoryIndex } from '../../../server/kb/index-cache.ts';
import { deleteAdvisories, saveAdvisories } from '../../../server/db/repositories/knowledge-base.ts';
import { databases } from '../server/harness.ts';
import { openKb } from './helpers.ts';

const advisory = (id: string, name: string) => osvRecord({
  schema_version: '1.6.0',
  id,
  modified: '2026-01-02T00:00:00Z',
  summary: `${name} flaw`,
  affected: [{ package: { ecosystem: 'npm', name }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }] }],
});

describe.each(databases)('advisory index cache ($name)', (database) => {
  it('reuses the index, and sees writes of this process and, when asked fresh, of others', async () => {
    const kb = await openKb(database);
    try {
      await saveAdvisories(kb.db, [advisory('GHSA-aaaa-aaaa-aaaa', 'left-pad')]);
      const first = await getAdvisoryIndex(kb.db);
      expect(first.byId.has('GHSA-AAAA-AAAA-AAAA')).toBe(true);
      expect(await getAdvisoryIndex(kb.db)).toBe(first);

      // A write through the store is seen by the next call, stamp tolerance or not.
      await saveAdvisories(kb.db, [advisory('GHSA-bbbb-bbbb-bbbb', 'right-pad')]);
      const second = await getAdvisoryIndex(kb.db);
      expect(second).not.toBe(first);
      expect(second.byId.has('GHSA-BBBB-BBBB-BBBB')).toBe(true);

      // Another process's delete (straight SQL here): screens may keep the index a few seconds,
      // an analysis asks fresh and gets the knowledge base as it is.
      const pk = (await kb.db.selectFrom('kb_advisories').select('id').where('advisory_id', '=', 'GHSA-bbbb-bbbb-bbbb').executeTakeFirstOrThrow()).id;
      await kb.db.deleteFrom('kb_aliases').where('advisory_pk', '=', pk).execute();
      await kb.db.deleteFrom('kb_affected').where('advisory_pk', '=', pk).execute();
      await kb.db.deleteFrom('kb_advisories').where('id', '=', pk).execute();
      expect(await getAdvisoryIndex(kb.db)).toBe(second);
      const fresh = await getAdvisoryIndex(kb.db, { fresh: true });
      expect(fresh.byId.has('GHSA-BBBB-BBBB-BBBB')).toBe(false);

      await deleteAdvisories(kb.db, ['GHSA-aaaa-aaaa-aaaa']);
      expect((await getAdvisoryIndex(kb.db)).advisories).toBe(0);
    } finally {
      await kb.close();
    }
  });
});
