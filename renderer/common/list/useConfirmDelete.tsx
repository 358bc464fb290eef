// Delete with confirmation: ask(...) opens an alert naming what goes (one row, or the n checked
// rows); on 删除 the delete runs with a loading button, then a success toast (删除成功, or the
// screen's own), the deleted rows leave the selection, and when they were the last rows of a later
// page the list steps back a page. A refusal is shown as an error toast. The alert is `element`,
// to be rendered. Every screen that deletes (or removes) rows asks through this.
import { useState, type ReactElement } from 'react';
import { Alert } from '@blueprintjs/core';
import { ADMIN_SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { apiErrorMessage } from '../../api/baseQuery.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { pageAfterDelete } from './urlState.ts';
import type { Selection } from './useSelection.ts';
import { zh } from '../../i18n/zh-CN.ts';

export type Doomed<Row, K> = { kind: 'one'; row: Row } | { kind: 'many'; keys: K[] };

export interface ConfirmDeleteTexts<Row> {
  /** The alert's heading (删除系统漏洞); none where the question says it all. */
  title?: string;
  one: (row: Row) => string;
  /** The question for checked rows (only lists with a batch delete ask it). */
  many?: (count: number) => string;
  /** The confirm button: 删除 unless said (移除 for members). */
  confirm?: string;
  /** The success toast: 删除成功 unless said (the project screens' spec message is 删除成功！). */
  done?: string;
  /** A refusal is shown as a warning, not an error (user deletion: spec doc 2 §8). */
  refusalAsWarning?: boolean;
}

export interface ConfirmDeleteOptions<Row, K> {
  rowKey: (row: Row) => K;
  removeOne: (row: Row) => Promise<unknown>;
  /** The batch delete of checked rows (a list offers 批量删除 only with it). */
  removeMany?: ((keys: K[]) => Promise<unknown>) | undefined;
  texts: ConfirmDeleteTexts<Row>;
  selection?: Pick<Selection<K>, 'drop'> | undefined;
  /** The list's page, the rows it shows and how to go to another page. */
  paging?: { page: number; rows: number; onPage: (page: number) => void };
}

export interface ConfirmDelete<Row, K> {
  ask: (doomed: Doomed<Row, K>) => void;
  element: ReactElement;
}

export function useConfirmDelete<Row, K>(options: ConfirmDeleteOptions<Row, K>): ConfirmDelete<Row, K> {
  const { rowKey, removeOne, removeMany, texts, selection, paging } = options;
  const [doomed, setDoomed] = useState<Doomed<Row, K> | null>(null);
  const [pending, setPending] = useState(false);

  const confirm = async () => {
    if (!doomed) return;
    setPending(true);
    try {
      await (doomed.kind === 'one' ? removeOne(doomed.row) : removeMany?.(doomed.keys));
      notify.success(texts.done ?? ADMIN_SUCCESS_MESSAGES.deleted);
      const gone = doomed.kind === 'one' ? [rowKey(doomed.row)] : doomed.keys;
      selection?.drop(gone);
      // The last rows of a later page went: step back a page.
      if (paging) {
        const page = pageAfterDelete(paging.page, paging.rows, gone.length);
        if (page !== paging.page) paging.onPage(page);
      }
    } catch (e) {
      (texts.refusalAsWarning ? notify.warning : notify.error)(apiErrorMessage(e));
    }
    setPending(false);
    setDoomed(null);
  };

  const element = (
    <Alert
      isOpen={doomed !== null}
      intent="danger"
      icon="trash"
      cancelButtonText={zh.list.cancel}
      confirmButtonText={texts.confirm ?? zh.list.removeConfirm}
      loading={pending}
      onCancel={() => setDoomed(null)}
      onConfirm={() => void confirm()}
    >
      {texts.title ? (
        <p>
          <strong>{texts.title}</strong>
        </p>
      ) : null}
      <p>{doomed ? (doomed.kind === 'one' ? texts.one(doomed.row) : texts.many?.(doomed.keys.length)) : ''}</p>
    </Alert>
  );
  return { ask: setDoomed, element };
}
