// /project/analysis 任务分析: the analyst's entry to analysis. Two starting points (a new project,
// a batch import) above the most recent analyses across every visible subject, because what an
// analyst comes here for is to start a scan or to see how the running ones are doing; the list is
// the task list without a subject filter, with its batch actions (batch launch and re-analysis
// from here use /project/analysis/batchLaunch and /project/analysis/batchReanalysis).
import { Button, Card, H5, Icon } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { routeTitle } from '../../../../contract/routes.ts';
import { Page } from '../../../common/PageHeader.tsx';
import { QueueState } from './TaskListScreen.tsx';
import { TaskListView } from './TaskListView.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import './styles.ts';

const t = zh.project.analysis;

export default function AnalysisScreen() {
  const navigate = useNavigate();
  return (
    <Page title={routeTitle('/project/analysis')} subtitle={<>{t.subtitle} <QueueState /></>}>
      <div className="cairn-analysis-actions">
        <Card className="cairn-analysis-action">
          <Icon icon="folder-new" size={32} intent="primary" />
          <div>
            <H5>{t.newProject}</H5>
            <p className="cairn-muted">{t.newProjectBody}</p>
            <Button intent="primary" icon="plus" text={t.newProject} onClick={() => navigate('/project/newProject')} />
          </div>
        </Card>
        <Card className="cairn-analysis-action">
          <Icon icon="import" size={32} intent="primary" />
          <div>
            <H5>{t.import}</H5>
            <p className="cairn-muted">{t.importBody}</p>
            <Button icon="import" text={t.import} onClick={() => navigate('/project/import')} />
          </div>
        </Card>
      </div>
      <H5>{t.recent}</H5>
      <TaskListView source="analysis" />
    </Page>
  );
}
