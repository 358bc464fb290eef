// The projects chosen on a list for a batch screen, kept in local storage under the app's batch
// keys (renderer/app/storage.ts): the router clears them when the user leaves the
// batch-reanalysis screens (spec doc 1 §2), and the batch screens read them once on entry.
import { STORAGE_KEYS, readItem, removeItems, writeItem } from '../../../app/storage.ts';

export interface SelectedProject {
  projectId: number;
  projectName: string;
  subjectName: string;
  getCodeType: number;
  status: number | null;
  analysisModes: string;
  retentionAudit: boolean;
}

/** Which list the selection came from: the task list, or the cross-subject analysis entry. */
export type SelectionSource = 'taskList' | 'analysis';

const keyOf = (source: SelectionSource): string =>
  source === 'taskList' ? STORAGE_KEYS.batchTaskSelection : STORAGE_KEYS.batchAnalysisSelection;

const isSelected = (v: unknown): v is SelectedProject =>
  typeof v === 'object' && v !== null && typeof (v as SelectedProject).projectId === 'number' && typeof (v as SelectedProject).projectName === 'string';

export function storeSelection(source: SelectionSource, rows: readonly SelectedProject[]): void {
  writeItem(keyOf(source), JSON.stringify(rows));
}

/** The stored selection; [] when none or unreadable. */
export function readSelection(source: SelectionSource): SelectedProject[] {
  const raw = readItem(keyOf(source));
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isSelected) : [];
  } catch {
    return [];
  }
}

export function clearSelection(source: SelectionSource): void {
  removeItems([keyOf(source)]);
}

/** Batch message of the spec, verbatim: 批量任务发起完成，成功：N个， 失败：M个. */
export const batchLaunchMessage = (success: number, fail: number): string => `批量任务发起完成，成功：${success}个， 失败：${fail}个`;
/** Batch import message of the spec, verbatim: 批量导入项目完成，成功：N个， 失败：M个. */
export const batchImportMessage = (success: number, fail: number): string => `批量导入项目完成，成功：${success}个， 失败：${fail}个`;
