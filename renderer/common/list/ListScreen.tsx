// The screen of a paged list, as administration screens have it: a header with its actions
// (批量删除 and 新增 among them), the filter bar over the list's URL fields, the table with row
// actions and, where rows can be deleted in a batch, checkboxes; loading, error with retry and
// the empty cases come from PagedListBody, deleting goes through useConfirmDelete.
import type { ReactNode } from 'react';
import { Button, ButtonGroup, Tooltip, type Intent } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { Page } from '../PageHeader.tsx';
import { EmptyState } from '../states.tsx';
import { DataTable, type Column } from './DataTable.tsx';
import { UrlFilterBar, type FilterControls } from './FilterBar.tsx';
import { PagedListBody, type PagedListQuery, type PagedListTexts } from './PagedListBody.tsx';
import { useConfirmDelete, type ConfirmDeleteTexts } from './useConfirmDelete.tsx';
import { useSelection } from './useSelection.ts';
import { changed, clearFilters, hasFilters, type FieldValues, type UrlFields, type UrlState } from './urlState.ts';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.list;
const NO_ROWS: never[] = [];
/** A list without deletes: the flow exists (hooks run on every render) but is never asked. */
const NO_REMOVE: ListRemove<unknown, never> = { one: () => Promise.resolve(), texts: { one: () => '' } };

export interface RowAction {
  icon: IconName;
  text: string;
  intent?: Intent;
  onClick: () => void;
}

export interface ListRemove<Row, K> {
  one: (row: Row) => Promise<unknown>;
  /** The batch delete: with it the rows get checkboxes and the header 批量删除. */
  many?: (keys: K[]) => Promise<unknown>;
  texts: ConfirmDeleteTexts<Row>;
  /** Rows that can be deleted (built-in rows cannot); every row when absent. */
  can?: (row: Row) => boolean;
}

export interface ListScreenProps<F extends UrlFields, Row, K extends string | number> {
  title: string;
  subtitle?: ReactNode;
  /** Header buttons before 批量删除 and 新增. */
  actions?: ReactNode;
  /** 新增, in the header and in the empty list. */
  add?: { text: string; onClick: () => void } | undefined;
  fields: F;
  state: UrlState<F>;
  onState: (next: UrlState<F>) => void;
  filters?: FilterControls<FieldValues<F>>;
  list: PagedListQuery<Row>;
  columns: ReadonlyArray<Column<Row>>;
  rowKey: (row: Row) => K;
  /** How a row is named in its checkbox, its buttons and the delete alert. */
  rowLabel: (row: Row) => string;
  onOpen?: (row: Row) => void;
  /** Added to the table's class. */
  tableClassName?: string;
  /** A row's buttons before 删除 (编辑, 上线 …). */
  rowActions?: ((row: Row) => RowAction[]) | undefined;
  /** Deleting rows; without it there is no 删除. */
  remove?: ListRemove<Row, K> | undefined;
  texts: PagedListTexts;
  /** The list without any filter is empty. */
  empty: { title: string; description?: string | undefined; icon?: IconName };
  /** Shown above the filters (a status panel of the screen's data). */
  banner?: ReactNode;
  /** Dialogs of the screen. */
  children?: ReactNode;
}

function RowButtons({ actions, label }: { actions: RowAction[]; label: string }) {
  return (
    <ButtonGroup variant="minimal">
      {actions.map((a) => (
        <Tooltip key={a.text} content={a.text}>
          <Button icon={a.icon} intent={a.intent} aria-label={`${a.text} ${label}`} onClick={a.onClick} />
        </Tooltip>
      ))}
    </ButtonGroup>
  );
}

export function ListScreen<F extends UrlFields, Row, K extends string | number>(props: ListScreenProps<F, Row, K>) {
  const { fields, state, onState, list, rowKey, rowLabel, remove, add } = props;
  const rows = list.data?.content ?? NO_ROWS;
  const selection = useSelection(rows, rowKey);
  const batch = Boolean(remove?.many);
  const { one, many, texts } = remove ?? (NO_REMOVE as ListRemove<Row, K>);
  const removal = useConfirmDelete<Row, K>({
    rowKey,
    removeOne: one,
    removeMany: many,
    texts,
    selection,
    paging: { page: state.page, rows: rows.length, onPage: (page) => onState(changed(state, { page } as Partial<UrlState<F>>)) },
  });

  const addButton = add ? <Button icon="add" intent="primary" text={add.text} onClick={add.onClick} /> : null;
  const header = (
    <>
      {props.actions}
      {batch ? <Button icon="trash" intent="danger" text={t.batchRemove(selection.selected.size)} disabled={selection.selected.size === 0} onClick={() => removal.ask({ kind: 'many', keys: [...selection.selected] })} /> : null}
      {addButton}
    </>
  );

  const actionsOf = (row: Row): RowAction[] => [
    ...(props.rowActions?.(row) ?? []),
    ...(remove && (remove.can?.(row) ?? true) ? [{ icon: 'trash' as const, text: t.remove, intent: 'danger' as const, onClick: () => removal.ask({ kind: 'one', row }) }] : []),
  ];
  const hasActions = Boolean(props.rowActions || remove);

  return (
    <Page title={props.title} subtitle={props.subtitle} actions={header}>
      {props.banner}
      {props.filters ? <UrlFilterBar fields={fields} controls={props.filters} state={state} onChange={onState} /> : null}
      <PagedListBody
        list={list}
        texts={props.texts}
        filtered={hasFilters(fields, state)}
        onReset={() => onState(clearFilters(fields, state))}
        emptyAll={<EmptyState title={props.empty.title} description={props.empty.description} icon={props.empty.icon ?? 'inbox'} action={addButton ?? undefined} />}
        page={state.page}
        size={state.size}
        onPage={(page) => onState(changed(state, { page } as Partial<UrlState<F>>))}
        onSize={(size) => onState(changed(state, { size } as Partial<UrlState<F>>))}
        table={(shown) => (
          <DataTable
            rows={shown}
            columns={props.columns}
            rowKey={rowKey}
            rowLabel={rowLabel}
            {...(props.onOpen ? { onOpen: props.onOpen } : {})}
            {...(props.tableClassName ? { className: props.tableClassName } : {})}
            selection={batch ? selection : undefined}
            actions={hasActions ? (row) => <RowButtons actions={actionsOf(row)} label={rowLabel(row)} /> : undefined}
          />
        )}
      />
      {props.children}
      {remove ? removal.element : null}
    </Page>
  );
}
