// /project/taskList?subjectId= 任务列表: the projects of a subject (or of every visible subject) with
// their latest analysis, live progress, row actions and the batch actions.
import { Button } from '@blueprintjs/core';
import { useNavigate, useSearchParams } from 'react-router';
import { routeTitle } from '../../../../contract/routes.ts';
import { useSubjectAllQuery } from '../../../api/subjectApi.ts';
import { useProjectQueueStateQuery } from '../../../api/taskApi.ts';
import { Page } from '../../../common/PageHeader.tsx';
import { TaskListView } from './TaskListView.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.project.list;

export function QueueState() {
  const queue = useProjectQueueStateQuery(undefined, { pollingInterval: 5_000 });
  if (!queue.data) return null;
  return <span className="cairn-muted cairn-queue-state">{t.queueState(queue.data.running, queue.data.queued, queue.data.concurrency)}</span>;
}

export default function TaskListScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const subjectId = Number(params.get('subjectId')) || null;
  const subjects = useSubjectAllQuery(undefined, { skip: subjectId === null });
  const subjectName = subjectId ? subjects.data?.find((s) => s.id === subjectId)?.name : undefined;
  const suffix = subjectId ? `?subjectId=${subjectId}` : '';
  return (
    <Page
      title={subjectName ? `${routeTitle('/project/taskList')} · ${subjectName}` : routeTitle('/project/taskList')}
      subtitle={<>{subjectId ? t.subtitle : t.subtitleAll} <QueueState /></>}
      actions={
        <>
          <Button icon="import" text={t.import} onClick={() => navigate(`/project/import${suffix}`)} />
          <Button intent="primary" icon="plus" text={t.newProject} onClick={() => navigate(`/project/newProject${suffix}`)} />
        </>
      }
    >
      <TaskListView source="taskList" />
    </Page>
  );
}
