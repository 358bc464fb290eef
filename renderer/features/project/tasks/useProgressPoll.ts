// Progress of the rows still queued or analysing, polled every 2 s (spec §4: launched, then
// progress polled, then details shown). When a polled project finishes, the list is refetched so
// its counts and status come from the finished run.
import { useEffect, useMemo, useRef } from 'react';
import type { Progress, TaskRow } from '../../../../contract/api/task.ts';
import { useProjectProgressQuery } from '../../../api/taskApi.ts';
import { isPolledStatus } from './taskListQuery.ts';

const PROGRESS_POLL_MS = 2000;

export function useProgressPoll(rows: readonly TaskRow[] | undefined, onFinished: () => void): Map<number, Progress> {
  const ids = useMemo(() => (rows ?? []).filter((r) => isPolledStatus(r.status)).map((r) => r.projectId), [rows]);
  const key = ids.join(',');
  const poll = useProjectProgressQuery(key, { skip: key === '', pollingInterval: PROGRESS_POLL_MS, skipPollingIfUnfocused: false });
  const byId = useMemo(() => {
    const map = new Map<number, Progress>();
    if (key !== '') for (const p of poll.data ?? []) map.set(p.projectId, p);
    return map;
  }, [poll.data, key]);

  // A project that the list shows running but the poll reports finished: refresh the list once.
  const reported = useRef(new Set<string>());
  useEffect(() => {
    for (const p of byId.values()) {
      if (!isPolledStatus(p.status) && ids.includes(p.projectId)) {
        const mark = `${p.projectId}:${p.taskId}:${p.status}`;
        if (!reported.current.has(mark)) {
          reported.current.add(mark);
          onFinished();
          return;
        }
      }
    }
  }, [byId, ids, onFinished]);
  return byId;
}
