// The remark dialog's rules, pure so they are tested in Node: a remark is required and at most
// 500 characters (the contract's limit); a custom level needs its own reason.
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.task.marks;
export const MARK_REMARK_MAX = 500;
const MAX = MARK_REMARK_MAX;

export interface MarkValue {
  code: string;
  remark: string;
  /** Vulnerability marks only: a new effective level and why. */
  customLevel?: number;
  levelRemark?: string;
}

/** Why a dialog value cannot be sent, or null. Pure, tested. */
export function markProblem(v: MarkValue, withLevel: boolean): string | null {
  if (!v.remark.trim()) return t.remarkRequired;
  if (v.remark.length > MAX) return t.tooLong;
  if (withLevel && v.customLevel !== undefined) {
    if (!(v.levelRemark ?? '').trim()) return t.levelRemarkRequired;
    if ((v.levelRemark ?? '').length > MAX) return t.tooLong;
  }
  return null;
}

