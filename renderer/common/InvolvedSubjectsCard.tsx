// The 影响项目 card of a detail page: the subjects or projects whose results contain the
// vulnerability or licence, paged 15 at a time. Shared by both detail pages; each gives its query
// and columns.
import { useState, type ReactNode } from 'react';
import { DataTable } from './list/DataTable.tsx';
import { Pager } from './list/Pager.tsx';
import type { PagedListQuery } from './list/PagedListBody.tsx';
import { Panel, QueryBody } from './Panel.tsx';

const SIZE = 15;

export function InvolvedSubjectsCard<T>(props: {
  id: string;
  /** The card's heading and what it says when nothing is involved. */
  texts: { involvedSubjects: string; involvedEmpty: string };
  useSubjects: (arg: { id: string; paging: { page: number; size: number } }) => PagedListQuery<T>;
  columns: Array<{ title: string; cell: (row: T) => ReactNode }>;
  rowKey: (row: T) => string;
}) {
  const { id, texts, useSubjects, columns, rowKey } = props;
  const [page, setPage] = useState(1);
  const q = useSubjects({ id, paging: { page, size: SIZE } });
  return (
    <Panel title={texts.involvedSubjects}>
      <QueryBody query={q} isEmpty={(d) => d.total === 0} emptyText={texts.involvedEmpty}>
        {(d) => (
          <>
            <DataTable rows={d.content} columns={columns.map((c) => ({ key: c.title, ...c }))} rowKey={rowKey} rowLabel={rowKey} compact />
            <Pager page={page} size={SIZE} total={d.total} onPage={setPage} />
          </>
        )}
      </QueryBody>
    </Panel>
  );
}
