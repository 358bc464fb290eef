// The rows checked in a paged list, by key. The selection is kept across pages (a batch action
// applies to every checked row, shown or not); 全选本页 checks or unchecks this page's rows only.
import { useCallback, useMemo, useState } from 'react';
import type { TableSelection } from './DataTable.tsx';

export interface Selection<K> extends TableSelection<K> {
  /** Unchecks these keys (rows that were deleted). */
  drop: (keys: readonly K[]) => void;
}

export function useSelection<Row, K extends string | number>(rows: readonly Row[], rowKey: (row: Row) => K): Selection<K> {
  const [selected, setSelected] = useState<ReadonlySet<K>>(new Set());
  const onToggle = useCallback(
    (key: K) =>
      setSelected((old) => {
        const next = new Set(old);
        if (next.has(key)) next.delete(key);
        else next.add(key);
        return next;
      }),
    [],
  );
  const onTogglePage = useCallback(
    (all: boolean) =>
      setSelected((old) => {
        const next = new Set(old);
        for (const row of rows) {
          if (all) next.add(rowKey(row));
          else next.delete(rowKey(row));
        }
        return next;
      }),
    [rows, rowKey],
  );
  const drop = useCallback((keys: readonly K[]) => setSelected((old) => new Set([...old].filter((key) => !keys.includes(key)))), []);
  return useMemo(() => ({ selected, onToggle, onTogglePage, drop }), [selected, onToggle, onTogglePage, drop]);
}
