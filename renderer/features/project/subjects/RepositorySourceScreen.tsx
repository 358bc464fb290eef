// /project/repositorySource 代码仓库源: the caller's own saved repository addresses and
// credentials (per user; nobody else sees them). Add, edit (the password is write-only: only
// whether one is stored is shown), check the address syntax, delete with a confirmation.
import { Button, Card, HTMLTable, Tag } from '@blueprintjs/core';
import { useState } from 'react';
import type { RepositorySource } from '../../../../contract/api/subject.ts';
import { CODE_TYPE_LABEL, DASH, labelOf } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useDeleteRepositorySourcesMutation, useRepositorySourcesQuery } from '../../../api/subjectApi.ts';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { Page } from '../../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { RepositorySourceDialog } from './RepositorySourceDialog.tsx';
import './styles.ts';

const t = zh.subject;
const s = t.sources;

function SourceTable({ rows, onEdit, onDelete }: { rows: RepositorySource[]; onEdit: (r: RepositorySource) => void; onDelete: (r: RepositorySource) => void }) {
  const c = s.columns;
  return (
    <div className="cairn-table-scroll">
      <HTMLTable className="cairn-table cairn-source-table" compact striped>
        <thead><tr><th>{c.name}</th><th>{c.type}</th><th>{c.url}</th><th>{c.username}</th><th>{c.password}</th><th>{c.updatedAt}</th><th className="cairn-col-actions">{c.actions}</th></tr></thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td className="cairn-subject-name">{r.name}</td>
              <td><Tag minimal>{labelOf(CODE_TYPE_LABEL, r.getCodeType)}</Tag></td>
              <td className="cairn-source-url">{r.url}</td>
              <td>{r.username || DASH}</td>
              <td>{r.hasPassword ? <Tag minimal intent="success" icon="lock">{s.passwordStored}</Tag> : <span className="cairn-muted">{s.passwordNone}</span>}</td>
              <td>{formatDateTime(r.updatedAt)}</td>
              <td className="cairn-table-actions cairn-col-actions">
                <Button small minimal icon="edit" text={t.edit} aria-label={`${t.edit} ${r.name}`} onClick={() => onEdit(r)} />
                <Button small minimal icon="trash" intent="danger" text={t.delete} aria-label={`${t.delete} ${r.name}`} onClick={() => onDelete(r)} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}

export default function RepositorySourceScreen() {
  const list = useRepositorySourcesQuery();
  const [editing, setEditing] = useState<RepositorySource | 'new' | null>(null);
  const [remove] = useDeleteRepositorySourcesMutation();
  const removal = useConfirmDelete<RepositorySource, number>({
    rowKey: (r) => r.id,
    removeOne: (r) => remove([r.id]).unwrap(),
    texts: { one: (r) => s.confirmDelete(r.name), done: SUCCESS_MESSAGES.deleted },
  });

  const addButton = <Button icon="add" intent="primary" text={s.add} onClick={() => setEditing('new')} />;
  let body;
  if (list.isLoading) body = <LoadingState />;
  else if (list.isError) body = <ErrorState title={s.loadFailed} message={apiErrorMessage(list.error)} onRetry={() => void list.refetch()} />;
  else if (!list.data?.length) body = <EmptyState title={s.empty} description={s.emptyBody} icon="git-repo" action={addButton} />;
  else body = <SourceTable rows={list.data} onEdit={setEditing} onDelete={(row) => removal.ask({ kind: 'one', row })} />;

  return (
    <Page title={routeTitle('/project/repositorySource')} subtitle={s.subtitle} actions={list.data?.length ? addButton : undefined}>
      <Card>{body}</Card>
      {editing ? <RepositorySourceDialog key={editing === 'new' ? 'new' : editing.id} editing={editing} onClose={() => setEditing(null)} /> : null}
      {removal.element}
    </Page>
  );
}
