// The 影响项目 card of a detail page: the projects whose results contain the vulnerability or
// licence, paged 15 at a time. Shared by both detail pages; each gives its query and columns.
import { Card, H5, HTMLTable } from '@blueprintjs/core';
import { useState, type ReactNode } from 'react';
import { Pager } from './list/Pager.tsx';
import type { PagedListQuery } from './list/PagedListBody.tsx';
import { ErrorState, LoadingState } from './states.tsx';

const SIZE = 15;

export function InvolvedSubjectsCard<T>(props: {
  id: string;
  title: string;
  emptyText: string;
  useSubjects: (arg: { id: string; paging: { page: number; size: number } }) => PagedListQuery<T>;
  columns: Array<{ title: string; cell: (row: T) => ReactNode }>;
  rowKey: (row: T) => string;
}) {
  const { id, title, emptyText, useSubjects, columns, rowKey } = props;
  const [page, setPage] = useState(1);
  const q = useSubjects({ id, paging: { page, size: SIZE } });
  let body: ReactNode;
  if (q.isLoading) body = <LoadingState />;
  else if (q.isError) body = <ErrorState message={q.error?.message} onRetry={() => void q.refetch()} />;
  else if (!q.data || q.data.total === 0) body = <div className="cairn-muted cairn-panel-empty">{emptyText}</div>;
  else {
    body = (
      <>
        <HTMLTable className="cairn-table" striped compact>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.title}>{c.title}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {q.data.content.map((s) => (
              <tr key={rowKey(s)}>
                {columns.map((c) => (
                  <td key={c.title}>{c.cell(s)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <Pager page={page} size={SIZE} total={q.data.total} onPage={setPage} />
      </>
    );
  }
  return (
    <Card className="cairn-panel">
      <H5>{title}</H5>
      {body}
    </Card>
  );
}
