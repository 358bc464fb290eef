// The body of a paged list: loading, error with retry, the empty cases (a page past the end,
// nothing matching the filters, nothing at all), else the table in a card with the pager under it.
// Shared so every list treats these cases alike.
import { Button, Card } from '@blueprintjs/core';
import { Pager } from './Pager.tsx';
import { EmptyState, ErrorState, LoadingState } from '../states.tsx';
import { zh } from '../../i18n/zh-CN.ts';
import './styles.ts';

/** What the body reads of a list query's result. */
export interface PagedListQuery<T> {
  isLoading: boolean;
  isError: boolean;
  isFetching: boolean;
  error?: { message?: string | undefined } | undefined;
  data?: { content: T[]; total: number } | undefined;
  refetch: () => unknown;
}

export interface PagedListTexts {
  loadFailed: string;
  emptyFiltered: string;
  emptyFilteredBody: string;
}

export function PagedListBody<T>(props: {
  list: PagedListQuery<T>;
  texts: PagedListTexts;
  /** Whether any filter is set (an empty result then says so). */
  filtered: boolean;
  /** Offered beside "nothing matches" when given (重置 of the filters). */
  onReset?: () => void;
  /** Shown when the list is empty without filters. */
  emptyAll: React.JSX.Element;
  page: number;
  size: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  table: (rows: T[]) => React.ReactNode;
}) {
  const { list, texts, filtered, onReset, emptyAll, page, size, onPage, onSize, table } = props;
  if (list.isLoading) return <LoadingState />;
  if (list.isError) return <ErrorState title={texts.loadFailed} message={list.error?.message} onRetry={() => void list.refetch()} />;
  if (!list.data || list.data.content.length === 0) {
    // A page past the end (the list shrank, or a hand-edited URL): offer the first page.
    if (list.data && list.data.total > 0) {
      return <EmptyState title={texts.emptyFiltered} icon="search" action={<Button icon="double-chevron-left" text={zh.list.firstPage} onClick={() => onPage(1)} />} />;
    }
    if (!filtered) return emptyAll;
    const reset = onReset ? <Button icon="reset" text={zh.list.reset} onClick={onReset} /> : undefined;
    return <EmptyState title={texts.emptyFiltered} description={texts.emptyFilteredBody} icon="search" {...(reset ? { action: reset } : {})} />;
  }
  return (
    <Card className={list.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
      {table(list.data.content)}
      <Pager page={page} size={size} total={list.data.total} onPage={onPage} onSize={onSize} />
    </Card>
  );
}
