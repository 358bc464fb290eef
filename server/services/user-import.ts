// Excel import of users (/system/user/import, /system/user/record): the template, and the import of
// a filled one. Every good row becomes a platform user who must change the password at the first
// login; every bad row is kept with its reason. Each row is its own transaction (the user, its
// roles and groups, its record row and its audit row commit together or not at all), so a bad row
// never leaves half a user and never stops the good ones.
import type ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import {
  USER_IMPORT_HEADERS, USER_IMPORT_MAX_ROWS, USER_IMPORT_OUTCOME, USER_IMPORT_STATUS, USER_TYPE,
  validateEmail, validatePhone, validateUsername, type UserImportRecord,
} from '../../contract/api/user.ts';
import { ROLE } from '../../contract/permissions.ts';
import { passwordHint, validateName, validatePassword } from '../../contract/validation.ts';
import { hashPassword } from '../auth/password.ts';
import { loadPasswordPolicy } from '../auth/session-user.ts';
import { audit } from '../db/repositories/audit-log.ts';
import {
  addImportRow, allGroupRefs, allRoles, createImportRecord, findImportRecord, findUsernameClash, finishImportRecord, insertUser,
} from '../db/repositories/user-admin.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';
import type { Actor } from './users.ts';

export const USER_IMPORT_MSG = {
  notMultipart: '请以 multipart/form-data 上传文件',
  fileMissing: '请选择要导入的文件',
  fileFieldWrong: '上传字段应为 file',
  fileTooLarge: '文件过大，用户导入文件不能超过 5 MB',
  fileEmpty: '文件为空',
  notXlsx: '文件不是有效的 .xlsx 工作簿，请使用下载的模板填写后上传',
  tooBig: '工作簿解压后过大，请只保留用户数据后重新上传',
  noSheet: '工作簿中没有工作表',
  missingHeaders: (names: string[]) => `模板表头不正确，缺少列：${names.join('、')}，请使用下载的模板`,
  noRows: '文件中没有用户数据',
  tooManyRows: (max: number) => `单个文件最多导入 ${max} 个用户，请分批导入`,
  required: (column: string) => `${column}不能为空`,
  duplicateInFile: (row: number) => `文件中用户名重复（与第 ${row} 行相同）`,
  usernameTaken: (username: string) => `用户名已存在：${username}`,
  unknownRoles: (names: string[]) => `角色不存在：${names.join('、')}`,
  unknownGroups: (names: string[]) => `分组不存在：${names.join('、')}`,
  ambiguousGroups: (names: string[]) => `分组名称不唯一，请填写完整路径（如 总部/研发部）：${names.join('、')}`,
  recordNotFound: '导入记录不存在',
  uploadMissing: '上传不存在、已被使用或尚未完成，请重新上传',
  notYourUpload: '只能导入自己上传的文件',
  interrupted: '导入中断（服务器内部错误），已导入的用户保留',
} as const;

const SHEET_NAME = '用户';
const HELP_SHEET_NAME = '说明';
/** Declared uncompressed size of the workbook's parts we agree to inflate. */
const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
const LIST_SEPARATORS = /[,，、;；\n]+/;
const HASH_CONCURRENCY = 4;

const NOTES: Record<(typeof USER_IMPORT_HEADERS)[number], string> = {
  用户名: '必填。1-64个字符，以字母或数字开头，只能包含字母、数字及 . _ - @；不区分大小写，不能与已有用户重复。',
  姓名: '必填。1-100个字符，不能包含[*?"<>|；《》]及空格。',
  初始密码: '必填。须符合密码策略；用户首次登录时须修改。',
  邮箱: '选填。',
  手机号: '选填。',
  角色: '选填，不填为普通用户。填写角色名称，多个用逗号或顿号分隔。',
  分组: '选填。填写分组名称或完整路径（如 总部/研发部），多个用逗号或顿号分隔。',
};

/** exceljs (some 400 modules) loads with the first template or import, not with the platform. */
const loadExcel = async () => (await import('exceljs')).default;

/** The .xlsx template: a 用户 sheet with the headers (text-formatted), and a 说明 sheet listing the roles and groups there are now. */
export async function buildUserTemplate(db: Db): Promise<Buffer> {
  const [roles, groups, policy, { Workbook }] = await Promise.all([allRoles(db), allGroupRefs(db), loadPasswordPolicy(db), loadExcel()]);
  const workbook = new Workbook();
  workbook.creator = 'Cairn';
  const sheet = workbook.addWorksheet(SHEET_NAME, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = USER_IMPORT_HEADERS.map((header) => ({ header, width: header === '分组' || header === '邮箱' ? 28 : 18, style: { numFmt: '@' } }));
  sheet.getRow(1).eachCell((cell, col) => {
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
    cell.note = NOTES[USER_IMPORT_HEADERS[col - 1]!];
  });
  const help = workbook.addWorksheet(HELP_SHEET_NAME);
  help.columns = [{ width: 100 }];
  const lines = [
    '用户导入说明',
    '1. 在“用户”工作表中每行填写一个用户，第一行表头不要修改；空行会被忽略。',
    `2. 初始密码：${passwordHint(policy)}。导入的用户首次登录时须修改密码。`,
    '3. 用户名不区分大小写，不能与已有用户或文件中的其他行重复。',
    '4. 有问题的行不会导入，其原因可在“导入记录”中查看；其余行正常导入。',
    `5. 单个文件最多 ${USER_IMPORT_MAX_ROWS} 个用户，仅支持 .xlsx。`,
    '',
    '当前可填写的角色：',
    ...roles.map((r) => `  ${r.name}`),
    '',
    '当前可填写的分组（名称或完整路径）：',
    ...groupPaths(groups).map((g) => `  ${g.path}`),
  ];
  for (const line of lines) help.addRow([line]);
  help.getRow(1).font = { bold: true, size: 13 };
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Each group's full path (names from the root, joined by /). */
function groupPaths(groups: Array<{ id: number; name: string; pid: number | null }>): Array<{ id: number; name: string; path: string }> {
  const byId = new Map(groups.map((g) => [g.id, g]));
  const pathOf = (id: number): string => {
    const names: string[] = [];
    const seen = new Set<number>();
    for (let g = byId.get(id); g && !seen.has(g.id); g = g.pid === null ? undefined : byId.get(g.pid)) {
      seen.add(g.id);
      names.unshift(g.name);
    }
    return names.join('/');
  };
  return groups.map((g) => ({ id: g.id, name: g.name, path: pathOf(g.id) }));
}

/** Sum of the declared sizes of the zip's entries, or null when the buffer is not a zip. */
function inflatedSize(buffer: Buffer): Promise<number | null> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return resolve(null);
      let total = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        total += entry.uncompressedSize;
        zip.readEntry();
      });
      zip.on('end', () => resolve(total));
      zip.on('error', () => resolve(null));
      zip.readEntry();
    });
  });
}

const cellText = (value: ExcelJS.CellValue): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  }
  return '';
};

interface ParsedRow { rowNo: number; cells: Record<string, string> }

/** The data rows of the workbook's 用户 sheet (or its first sheet), or the whole file's refusal. */
async function readRows(buffer: Buffer): Promise<ParsedRow[]> {
  const size = await inflatedSize(buffer);
  if (size === null) throw new UserError(USER_IMPORT_MSG.notXlsx);
  if (size > MAX_INFLATED_BYTES) throw new UserError(USER_IMPORT_MSG.tooBig);
  const { Workbook } = await loadExcel();
  const workbook = new Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ExcelJS.Buffer);
  } catch {
    throw new UserError(USER_IMPORT_MSG.notXlsx);
  }
  const sheet = workbook.getWorksheet(SHEET_NAME) ?? workbook.worksheets.find((s) => s.state === 'visible');
  if (!sheet) throw new UserError(USER_IMPORT_MSG.noSheet);
  const headerCells = (sheet.getRow(1).values as ExcelJS.CellValue[]) ?? [];
  const columns = new Map<string, number>();
  headerCells.forEach((v, i) => {
    const name = cellText(v).trim().replace(/[*＊]/g, '');
    if (name && !columns.has(name)) columns.set(name, i);
  });
  const required = ['用户名', '姓名', '初始密码'];
  const missing = required.filter((h) => !columns.has(h));
  if (missing.length) throw new UserError(USER_IMPORT_MSG.missingHeaders(missing));
  const rows: ParsedRow[] = [];
  for (let r = 2; r <= sheet.rowCount; r++) {
    const values = (sheet.getRow(r).values as ExcelJS.CellValue[]) ?? [];
    const cells: Record<string, string> = {};
    for (const header of USER_IMPORT_HEADERS) {
      const index = columns.get(header);
      cells[header] = index === undefined ? '' : cellText(values[index] ?? null).trim();
    }
    if (Object.values(cells).every((v) => v === '')) continue;
    rows.push({ rowNo: r, cells });
    if (rows.length > USER_IMPORT_MAX_ROWS) throw new UserError(USER_IMPORT_MSG.tooManyRows(USER_IMPORT_MAX_ROWS));
  }
  if (rows.length === 0) throw new UserError(USER_IMPORT_MSG.noRows);
  return rows;
}

const splitList = (text: string): string[] => [...new Set(text.split(LIST_SEPARATORS).map((s) => s.trim()).filter(Boolean))];

/**
 * Imports the uploaded workbook: the record is written first (status 导入中), each row in its own
 * transaction, then the record's counts and status. A file refused as a whole (unreadable, wrong
 * headers, too many rows) leaves a record with status 导入失败 and its reason.
 */
export async function importUsers(db: Db, actor: Actor, file: { name: string; buffer: Buffer }): Promise<UserImportRecord> {
  const recordId = await inTransaction(db, async (trx) => {
    const id = await createImportRecord(trx, { fileName: file.name.slice(0, 255), userId: actor.userId });
    await audit(trx, { userId: actor.userId, action: 'user.import.started', detail: { address: actor.address, recordId: id, file: file.name } });
    return id;
  });
  let rows: ParsedRow[];
  try {
    rows = await readRows(file.buffer);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    await finishImportRecord(db, recordId, { status: USER_IMPORT_STATUS.FAILED, total: 0, succeeded: 0, failed: 0, message: error.message });
    return (await findImportRecord(db, recordId))!;
  }

  const [policy, roles, groups] = await Promise.all([loadPasswordPolicy(db), allRoles(db), allGroupRefs(db)]);
  const paths = groupPaths(groups);
  const ordinary = roles.find((r) => r.code === ROLE.ORDINARY_USER);
  const firstRowOf = new Map<string, number>();
  let succeeded = 0;
  let failed = 0;

  try {
    // A few rows at a time: hashing a password (scrypt) is most of a row's work and runs on the
    // thread pool. Each row's checks before its first await run in file order, so a username
    // repeated in the file is still caught against its first row.
    for (let i = 0; i < rows.length; i += HASH_CONCURRENCY) {
      for (const outcome of await Promise.all(rows.slice(i, i + HASH_CONCURRENCY).map(importRow))) {
        if (outcome) succeeded++;
        else failed++;
      }
    }
  } catch (error) {
    // A defect, not a bad row: the record says the import stopped, with what it did so far.
    await finishImportRecord(db, recordId, { status: USER_IMPORT_STATUS.FAILED, total: rows.length, succeeded, failed, message: USER_IMPORT_MSG.interrupted });
    throw error;
  }

  async function importRow({ rowNo, cells }: ParsedRow): Promise<boolean> {
    const username = cells.用户名!;
    const name = cells.姓名!;
    const refuse = async (reason: string) => {
      await addImportRow(db, { recordId, rowNo, username, name, outcome: USER_IMPORT_OUTCOME.REFUSED, reason, userId: null });
    };
    const key = username.toLowerCase();
    const earlier = firstRowOf.get(key);
    if (username && earlier === undefined) firstRowOf.set(key, rowNo);

    let problem: string | null = null;
    if (!username) problem = USER_IMPORT_MSG.required('用户名');
    else if (!name) problem = USER_IMPORT_MSG.required('姓名');
    else if (!cells.初始密码) problem = USER_IMPORT_MSG.required('初始密码');
    else if (earlier !== undefined) problem = USER_IMPORT_MSG.duplicateInFile(earlier);
    problem ??= validateUsername(username) ?? validateName(name) ?? validatePassword(cells.初始密码!, policy)
      ?? validateEmail(cells.邮箱) ?? validatePhone(cells.手机号);

    const roleNames = splitList(cells.角色 ?? '');
    const chosenRoles = roleNames.length ? roleNames.map((n) => roles.find((r) => r.name === n || String(r.code) === n)) : [ordinary];
    const unknownRoles = roleNames.filter((_, i) => !chosenRoles[i]);
    if (!problem && unknownRoles.length) problem = USER_IMPORT_MSG.unknownRoles(unknownRoles);

    const groupNames = splitList(cells.分组 ?? '');
    const matches = groupNames.map((n) => {
      const byPath = paths.filter((g) => g.path === n.replace(/\s*\/\s*/g, '/'));
      return byPath.length ? byPath : paths.filter((g) => g.name === n);
    });
    const unknownGroups = groupNames.filter((_, i) => matches[i]!.length === 0);
    const ambiguous = groupNames.filter((_, i) => matches[i]!.length > 1);
    if (!problem && unknownGroups.length) problem = USER_IMPORT_MSG.unknownGroups(unknownGroups);
    if (!problem && ambiguous.length) problem = USER_IMPORT_MSG.ambiguousGroups(ambiguous);

    if (problem) {
      await refuse(problem);
      return false;
    }
    const passwordHash = await hashPassword(cells.初始密码!);
    try {
      await inTransaction(db, async (trx) => {
        const clash = await findUsernameClash(trx, username);
        if (clash) throw new UserError(USER_IMPORT_MSG.usernameTaken(clash.username), 'conflict');
        const roleIds = chosenRoles.map((r) => r!.id);
        const groupIds = matches.map((m) => m[0]!.id);
        const id = await insertUser(trx, {
          username, name, passwordHash, userType: USER_TYPE.PLATFORM, email: cells.邮箱 || null, phone: cells.手机号 || null,
          updatedPwd: false, roleIds, groupIds,
        });
        await addImportRow(trx, { recordId, rowNo, username, name, outcome: USER_IMPORT_OUTCOME.IMPORTED, reason: '', userId: id });
        await audit(trx, {
          userId: actor.userId,
          action: 'user.created',
          detail: {
            address: actor.address, source: 'import', recordId, rowNo,
            after: { id, username, name, userType: USER_TYPE.PLATFORM, email: cells.邮箱 || null, phone: cells.手机号 || null, roles: chosenRoles.map((r) => r!.name), groups: matches.map((m) => m[0]!.path) },
          },
        });
      });
      return true;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      await refuse(error.message);
      return false;
    }
  }

  const status = succeeded === 0 ? USER_IMPORT_STATUS.FAILED : USER_IMPORT_STATUS.SUCCEEDED;
  await finishImportRecord(db, recordId, { status, total: rows.length, succeeded, failed, message: '' });
  return (await findImportRecord(db, recordId))!;
}
