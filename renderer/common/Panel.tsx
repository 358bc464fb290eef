// A titled card of a detail view or drawer, and the body of a panel fed by one query. Shared so
// every panel says "nothing here" and "loading / failed, retry" the same way.
import type { ReactNode } from 'react';
import { Card, H5 } from '@blueprintjs/core';
import { ErrorState, LoadingState } from './states.tsx';

/** The muted line a panel shows when it has nothing to list. */
function PanelEmpty({ children }: { children: ReactNode }) {
  return <div className="cairn-muted cairn-panel-empty">{children}</div>;
}

/** A card with a heading (and buttons beside it); `emptyText` (when set) stands in for the children. */
export function Panel({ title, actions, emptyText, children }: { title: ReactNode; actions?: ReactNode; emptyText?: ReactNode; children?: ReactNode }) {
  return (
    <Card className="cairn-panel">
      {actions ? (
        <div className="cairn-panel-header">
          <H5>{title}</H5>
          {actions}
        </div>
      ) : (
        <H5>{title}</H5>
      )}
      {emptyText === undefined ? children : <PanelEmpty>{emptyText}</PanelEmpty>}
    </Card>
  );
}

/** What QueryBody reads of a query's result. */
export interface PanelQuery<D> {
  isLoading: boolean;
  isError: boolean;
  error?: { message?: string | undefined } | undefined;
  data?: D | undefined;
  refetch: () => unknown;
}

/** Loading, failed (with retry), empty (a muted line), else the content drawn from the data. */
export function QueryBody<D>({ query, isEmpty, emptyText, children }: { query: PanelQuery<D>; isEmpty?: (data: D) => boolean; emptyText?: ReactNode; children: (data: D) => ReactNode }) {
  if (query.isLoading) return <LoadingState />;
  if (query.isError || !query.data) return <ErrorState message={query.error?.message} onRetry={() => void query.refetch()} />;
  if (isEmpty?.(query.data)) return <PanelEmpty>{emptyText}</PanelEmpty>;
  return <>{children(query.data)}</>;
}
