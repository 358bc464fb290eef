// What every tab of the task details needs: the project, the run it shows and how to move the
// URL state. Provided by TaskDetailsScreen.
import { createContext, useContext } from 'react';
import type { ProjectHeader, RunRow } from '../../../../contract/api/result/index.ts';
import type { DetailState } from './taskUrl.ts';

export interface TaskView {
  projectId: number;
  project: ProjectHeader;
  /** The run the tabs show (never null inside a result tab). */
  run: RunRow;
  /** Binary product: marks go through the /binary variants. */
  binary: boolean;
  state: DetailState;
  /** Changes URL keys (undefined removes one), replacing the history entry. */
  setUrl: (changes: Record<string, string | number | undefined>) => void;
  canAudit: boolean;
  canVul: boolean;
}

export const TaskViewContext = createContext<TaskView | null>(null);

export function useTaskView(): TaskView {
  const v = useContext(TaskViewContext);
  if (!v) throw new Error('TaskViewContext missing');
  return v;
}
