// Keeps the licences table in step with the licence knowledge the product ships (the SPDX list
// from its npm package, levels and attributes from resources/licenses). Runs at start-up; a
// stamp of that data in settings makes it a no-op until the shipped data changes. Levels an
// administrator edited are kept; everything else follows the shipped data.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Kysely } from 'kysely';
import attributesData from '../../resources/licenses/attributes.json' with { type: 'json' };
import levelsData from '../../resources/licenses/levels.json' with { type: 'json' };
import type { Database } from '../db/schema.ts';
import { editedLevels, writeCatalogue, type CatalogueRow } from '../db/repositories/licenses.ts';
import { getSetting, putSetting } from '../db/repositories/settings.ts';
import { nowIso } from '../db/time.ts';
import { exceptionIdList, licenseAttributes, licenseIds, licenseInfo, licenseLevel } from '../engine/index.ts';

const STAMP_KEY = 'license_catalogue_stamp';
const BATCH = 200;

function shippedStamp(): string {
  const require = createRequire(import.meta.url);
  const hash = createHash('sha256');
  hash.update(String((require('spdx-license-list/package.json') as { version: string }).version));
  // The same data knowledge.ts ships (imported, so a bundled server carries it too).
  hash.update(JSON.stringify(levelsData));
  hash.update(JSON.stringify(attributesData));
  return hash.digest('hex');
}

export async function syncLicenseCatalogue(db: Kysely<Database>): Promise<{ inserted: number; updated: number } | null> {
  const stamp = shippedStamp();
  if ((await getSetting<string>(db, STAMP_KEY)) === stamp) return null;

  const existing = await editedLevels(db);
  const now = nowIso();
  const rows: CatalogueRow[] = [...licenseIds(), ...exceptionIdList()].flatMap((id) => {
    const info = licenseInfo(id);
    if (!info) return [];
    const attributes = info.isException ? undefined : licenseAttributes(id);
    return [{
      spdx_id: id,
      name: info.name,
      url: info.url ?? '',
      level: licenseLevel(id),
      default_level: licenseLevel(id),
      copyleft: attributes?.copyleft ?? 'none',
      osi_approved: info.osiApproved ? 1 : 0,
      deprecated: info.deprecated ? 1 : 0,
      is_exception: info.isException ? 1 : 0,
      attributes: attributes ? JSON.stringify(attributes) : null,
      updated_at: now,
    }];
  });
  const fresh = rows.filter((r) => !existing.has(r.spdx_id));
  // An administrator's level survives an update of the shipped defaults.
  const known = rows.filter((r) => existing.has(r.spdx_id)).map((row) => ({ row, keepLevel: existing.get(row.spdx_id)! }));
  await writeCatalogue(db, fresh, known, BATCH);
  await putSetting(db, STAMP_KEY, stamp);
  return { inserted: fresh.length, updated: known.length };
}
