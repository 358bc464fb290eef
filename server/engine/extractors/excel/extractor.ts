// The extractor for component lists found in a scanned tree. exceljs is heavy to load, so the
// importer is loaded only when a list is actually found (keeps every scan's start-up quick).
import path from 'node:path';
import type { Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';

/** `*组件清单*.xlsx|xlsm|xls|csv` and `*组件列表*…`, except our own blank template. */
const LIST_NAME = /(组件清单|组件列表)[^/]*\.(xlsx|xlsm|xls|csv)$/i;

export const excelListExtractor: Extractor = {
  name: 'excel',
  ecosystem: 'generic',
  reads: ['*组件清单*.xlsx', '*组件清单*.csv'],
  matches(file: string): boolean {
    const base = path.posix.basename(file);
    return LIST_NAME.test(base) && !base.startsWith('~$') && !base.includes('导入模板');
  },
  async extract(file: InputFile, ctx): Promise<Target[]> {
    const { importComponentList } = await import('./import.ts');
    const { target, rejected } = await importComponentList(file, { signal: ctx.signal });
    if (target.components.length === 0 && rejected.length > 0) {
      const shown = rejected.slice(0, 3).map((r) => r.reason).join('；');
      throw new ExtractError(`组件清单 ${file.path} 中没有可导入的组件：${shown}${rejected.length > 3 ? ` 等 ${rejected.length} 行` : ''}`);
    }
    return target.components.length > 0 ? [target] : [];
  },
};

export const extractors: Extractor[] = [excelListExtractor];
