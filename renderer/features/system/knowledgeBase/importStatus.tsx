// An import record's status tag (with its message as tooltip) and its counts, shared by the
// import records screen and the 导入漏洞数据 dialog.
import { useEffect, useRef } from 'react';
import { Tag, Tooltip, type Intent } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { ImportRecord } from '../../../../contract/api/vulnerability.ts';
import { IMPORT_RECORD_STATUS_LABEL, labelOf } from '../../../../contract/enums.ts';
import { platformApi } from '../../../api/platformApi.ts';
import { useAppDispatch } from '../../../app/hooks.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.vul;

/** 导入中 and 排队中: still moving, polled and cancellable. */
export const isOpenImport = (status: number): boolean => status === 1 || status === 4;

/**
 * When a followed import ends (open → ended), what it changed is read again: the vulnerability
 * lists and the knowledge-base status of the home card and the 漏洞知识库 panel. Without this they
 * keep the answer from before the import until the page is reloaded.
 */
export function useRefreshWhenImportEnds(open: boolean): void {
  const dispatch = useAppDispatch();
  const was = useRef(open);
  useEffect(() => {
    if (was.current && !open) dispatch(platformApi.util.invalidateTags(['Vulnerability', 'KbStatus'] as never));
    was.current = open;
  }, [open, dispatch]);
}

const STATUS_INTENT: Record<number, Intent> = { 1: 'primary', 2: 'success', 3: 'danger', 4: 'none', 5: 'warning' };
const STATUS_ICON: Record<number, IconName> = { 1: 'refresh', 2: 'tick-circle', 3: 'error', 4: 'time', 5: 'disable' };

export function ImportStatusTag({ r }: { r: Pick<ImportRecord, 'status' | 'message'> }) {
  return (
    <Tooltip content={r.message || undefined} disabled={!r.message}>
      <Tag minimal intent={STATUS_INTENT[r.status]} icon={STATUS_ICON[r.status]} data-testid="kb-import-status">
        {labelOf(IMPORT_RECORD_STATUS_LABEL, r.status)}
      </Tag>
    </Tooltip>
  );
}

const COUNT_KEYS = ['total', 'imported', 'updated', 'unchanged', 'failed'] as const;

export function ImportCounts({ r }: { r: ImportRecord }) {
  return (
    <div className="cairn-import-counts">
      {COUNT_KEYS.map((k) => (
        <span key={k} className={k === 'failed' && r.failed > 0 ? 'cairn-import-count cairn-import-count-bad' : 'cairn-import-count'}>
          <span className="cairn-muted">{t.importCountLabels[k]}</span> {r[k].toLocaleString('zh-CN')}
        </span>
      ))}
    </div>
  );
}
