// Licence commands: an administrator's level setting, written with its audit row in one transaction.
import type { LicenseRow } from '../../contract/api/license.ts';
import { audit } from '../db/repositories/audit-log.ts';
import { findLicense, setLicenseLevel, toLicenseRow } from '../db/repositories/licenses.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import type { Level } from '../engine/index.ts';
import { UserError } from '../errors.ts';

export const LICENSE_MSG = {
  notFound: '许可证不存在',
  edited: '许可证等级已修改',
};

/** The licence of a row id or SPDX id; 许可证不存在 otherwise. */
export async function licenseOf(db: Db, id: string | number) {
  const row = await findLicense(db, id);
  if (!row) throw new UserError(LICENSE_MSG.notFound, 'not-found');
  return row;
}

/** Sets a licence's level; the licence as it now is. */
export async function changeLicenseLevel(db: Db, userId: number, id: string | number, level: Level): Promise<LicenseRow> {
  const row = await licenseOf(db, id);
  return inTransaction(db, async (trx) => {
    const updated = await setLicenseLevel(trx, row, level, userId);
    await audit(trx, { userId, action: 'license.level.modified', detail: { spdxId: row.spdx_id, from: row.level, to: level } });
    return toLicenseRow(updated);
  });
}
