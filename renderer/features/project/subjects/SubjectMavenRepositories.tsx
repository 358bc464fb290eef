// 基本设置 → Maven 仓库（在线解析）: the 应用's own Maven repositories (/api/subject/scan/maven),
// asked before the system's when its analyses resolve pom.xml dependencies online. Members see
// them; managers add, edit, enable or disable and delete them.
import { Button } from '@blueprintjs/core';
import { useState } from 'react';
import type { ScanRepositoryRow } from '../../../../contract/api/scan-config.ts';
import type { SubjectDetail } from '../../../../contract/api/subject.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import {
  useAddSubjectMavenRepositoryMutation, useRemoveSubjectMavenRepositoryMutation, useSubjectMavenRepositoriesQuery, useUpdateSubjectMavenRepositoryMutation,
} from '../../../api/scanConfigApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { Panel, QueryBody } from '../../../common/Panel.tsx';
import { DataTable } from '../../../common/list/DataTable.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { SCAN_REPOSITORY_COLUMNS } from '../../../common/scanRepository/columns.tsx';
import { ScanRepositoryRowActions } from '../../../common/scanRepository/RowActions.tsx';
import { ScanRepositoryDialog } from '../../../common/scanRepository/ScanRepositoryDialog.tsx';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.system.scanConfig;

export function SubjectMavenRepositories({ subject }: { subject: SubjectDetail }) {
  const query = useSubjectMavenRepositoriesQuery(subject.id);
  const [add] = useAddSubjectMavenRepositoryMutation();
  const [update] = useUpdateSubjectMavenRepositoryMutation();
  const [remove] = useRemoveSubjectMavenRepositoryMutation();
  const [dialog, setDialog] = useState<{ row: ScanRepositoryRow | null } | null>(null);
  const subjectId = subject.id;
  const removal = useConfirmDelete<ScanRepositoryRow, number>({
    rowKey: (r) => r.id,
    removeOne: (r) => remove({ id: r.id, subjectId }).unwrap(),
    texts: { title: t.removeTitle, one: (r) => t.removeBody(r.name) },
  });
  const toggle = async (row: ScanRepositoryRow) => {
    try {
      await update({ id: row.id, subjectId, name: row.name, url: row.url, username: row.username, enabled: !row.enabled, priority: row.priority, remark: row.remark }).unwrap();
      notify.success(ADMIN_SUCCESS_MESSAGES.modified);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };
  const manage = subject.canManage;
  return (
    <Panel title={t.subjectTitle} actions={manage ? <Button icon="add" text={t.add('Maven 仓库')} onClick={() => setDialog({ row: null })} /> : undefined}>
      <p className="cairn-muted">{t.subjectHint}</p>
      <QueryBody query={query} isEmpty={(rows) => rows.length === 0} emptyText={t.subjectEmpty}>
        {(rows) => (
          <DataTable
            compact
            rows={rows}
            columns={SCAN_REPOSITORY_COLUMNS}
            rowKey={(r) => r.id}
            rowLabel={(r) => r.name}
            actions={manage ? (row) => <ScanRepositoryRowActions row={row} onEdit={() => setDialog({ row })} onToggle={() => void toggle(row)} onRemove={() => removal.ask({ kind: 'one', row })} /> : undefined}
          />
        )}
      </QueryBody>
      {dialog ? (
        <ScanRepositoryDialog
          ecosystem="maven"
          row={dialog.row}
          onClose={() => setDialog(null)}
          send={(form) => (dialog.row ? update({ id: dialog.row.id, subjectId, ...form }).unwrap() : add({ subjectId, ...form }).unwrap())}
        />
      ) : null}
      {removal.element}
    </Panel>
  );
}
