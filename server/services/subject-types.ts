// 项目类型 commands: each checks its input, changes the rows and writes its audit row in one
// transaction, and refuses with a UserError naming the field a form should mark.
import type { SubjectTypeForm, SubjectTypeRow, SubjectTypeStatus } from '../../contract/api/project-type.ts';
import { validateDescription, validateName } from '../../contract/validation.ts';
import { audit } from '../db/repositories/audit-log.ts';
import {
  countSubjectsOfType, deleteSubjectType, findSubjectType, findSubjectTypeNamed, insertSubjectType,
  setSubjectTypeStatus, subjectTypeRow, updateSubjectType, type SubjectTypeRecord,
} from '../db/repositories/subject-types.ts';
import { inTransaction, type Db } from '../db/transaction.ts';
import { UserError } from '../errors.ts';

const SUBJECT_TYPE_MSG = {
  notFound: '项目类型不存在',
  duplicate: (name: string) => `项目类型“${name}”已存在`,
  inUse: (count: number) => `该项目类型正被 ${count} 个应用使用，不能删除；可将其下线，不再供新应用选择`,
};

/** The form's values, checked with the rules every name and description follow. */
async function checked(db: Db, form: SubjectTypeForm, exceptId?: number): Promise<{ name: string; remark: string }> {
  const nameProblem = validateName(form.subjectTypeName);
  if (nameProblem) throw new UserError(nameProblem, 'invalid', { field: 'subjectTypeName' });
  const remark = form.remark ?? '';
  const remarkProblem = validateDescription(remark);
  if (remarkProblem) throw new UserError(remarkProblem, 'invalid', { field: 'remark' });
  if (await findSubjectTypeNamed(db, form.subjectTypeName, exceptId)) {
    throw new UserError(SUBJECT_TYPE_MSG.duplicate(form.subjectTypeName), 'conflict', { field: 'subjectTypeName' });
  }
  return { name: form.subjectTypeName, remark };
}

async function existing(db: Db, id: number): Promise<SubjectTypeRecord> {
  const record = await findSubjectType(db, id);
  if (!record) throw new UserError(SUBJECT_TYPE_MSG.notFound, 'not-found');
  return record;
}

export async function addSubjectType(db: Db, userId: number, form: SubjectTypeForm): Promise<SubjectTypeRow> {
  const added = await inTransaction(db, async (trx) => {
    const values = await checked(trx, form);
    const record = await insertSubjectType(trx, { ...values, userId });
    await audit(trx, { userId, action: 'subjectType.added', detail: { id: record.id, name: record.name } });
    return record;
  });
  return subjectTypeRow(db, added);
}

export async function editSubjectType(db: Db, userId: number, id: number, form: SubjectTypeForm): Promise<SubjectTypeRow> {
  const edited = await inTransaction(db, async (trx) => {
    const record = await existing(trx, id);
    const values = await checked(trx, form, id);
    const updated = await updateSubjectType(trx, record, values);
    await audit(trx, { userId, action: 'subjectType.modified', detail: { id, from: record.name, to: updated.name, remark: updated.remark } });
    return updated;
  });
  return subjectTypeRow(db, edited);
}

export async function switchSubjectType(db: Db, userId: number, id: number, status: SubjectTypeStatus): Promise<SubjectTypeRow> {
  const switched = await inTransaction(db, async (trx) => {
    const record = await existing(trx, id);
    const updated = await setSubjectTypeStatus(trx, record.id, status);
    await audit(trx, { userId, action: 'subjectType.status', detail: { id, name: record.name, status } });
    return updated;
  });
  return subjectTypeRow(db, switched);
}

export async function removeSubjectType(db: Db, userId: number, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const record = await existing(trx, id);
    const used = await countSubjectsOfType(trx, record.name);
    if (used > 0) throw new UserError(SUBJECT_TYPE_MSG.inUse(used), 'conflict');
    await deleteSubjectType(trx, id);
    await audit(trx, { userId, action: 'subjectType.deleted', detail: { id, name: record.name } });
  });
}
