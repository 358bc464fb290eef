// 版本管理: versions of the subject (unique names: a taken one is refused beside the name, in the
// shared form dialog); deleting one leaves its projects unlabelled.
import { Button, Card, FormGroup, HTMLTable, InputGroup, TextArea } from '@blueprintjs/core';
import { useState } from 'react';
import type { SubjectDetail, VersionRow } from '../../../../contract/api/subject.ts';
import { DASH } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { validateDescription, validateName } from '../../../../contract/validation.ts';
import { useCreateVersionMutation, useDeleteVersionMutation, useUpdateVersionMutation, useVersionsQuery } from '../../../api/subjectApi.ts';
import { FormDialog } from '../../../common/form/FormDialog.tsx';
import { validateFields } from '../../../common/form/formErrors.ts';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { SettingsLayout } from './SettingsLayout.tsx';

const t = zh.subject;

type VersionValues = { name: string; remark: string };
const validateVersion = validateFields<VersionValues>({ name: validateName, remark: validateDescription });

function VersionDialog({ subjectId, editing, onClose }: { subjectId: number; editing: VersionRow | 'new'; onClose: () => void }) {
  const current = editing !== 'new' ? editing : null;
  const [create] = useCreateVersionMutation();
  const [update] = useUpdateVersionMutation();
  return (
    <FormDialog<VersionValues>
      title={current ? t.editVersion : t.addVersion}
      icon="tag"
      idPrefix="version"
      onClose={onClose}
      initial={{ name: current?.name ?? '', remark: current?.remark ?? '' }}
      validate={validateVersion}
      submit={(v) => (current ? update({ id: current.id, ...v }).unwrap() : create({ subjectId, ...v }).unwrap())}
      success={current ? SUCCESS_MESSAGES.saved : SUCCESS_MESSAGES.added}
      fields={['name', 'remark']}
    >
      {(form) => (
        <>
          <FormGroup label={t.versionName} labelFor={form.id('name')} labelInfo="*" {...form.group('name')}>
            <InputGroup id={form.id('name')} intent={form.intent('name')} value={form.values.name} onValueChange={(v) => form.set('name', v)} autoFocus />
          </FormGroup>
          <FormGroup label={t.remark} labelFor={form.id('remark')} {...form.group('remark')}>
            <TextArea id={form.id('remark')} intent={form.intent('remark')} fill value={form.values.remark} onChange={(e) => form.set('remark', e.currentTarget.value)} />
          </FormGroup>
        </>
      )}
    </FormDialog>
  );
}

function Versions({ subject }: { subject: SubjectDetail }) {
  const list = useVersionsQuery(subject.id);
  const [editing, setEditing] = useState<VersionRow | 'new' | null>(null);
  const [remove] = useDeleteVersionMutation();
  const removal = useConfirmDelete<VersionRow, number>({
    rowKey: (v) => v.id,
    removeOne: (v) => remove({ id: v.id }).unwrap(),
    texts: { one: (v) => t.confirmDeleteVersion(v.name, v.projectCount), done: SUCCESS_MESSAGES.deleted },
  });
  let body;
  if (list.isLoading) body = <LoadingState />;
  else if (list.isError) body = <ErrorState message={(list.error as { message?: string }).message} onRetry={() => void list.refetch()} />;
  else if (!list.data?.length) body = <EmptyState title={t.noVersions} description={t.noVersionsBody} icon="tag" />;
  else body = (
    <div className="cairn-table-scroll">
      <HTMLTable className="cairn-table" compact striped>
        <thead><tr><th>{t.versionColumns.name}</th><th>{t.versionColumns.remark}</th><th>{t.versionColumns.projects}</th><th>{t.versionColumns.createdAt}</th><th className="cairn-col-actions">{t.columns.actions}</th></tr></thead>
        <tbody>
          {list.data.map((v) => (
            <tr key={v.id}>
              <td>{v.name}</td>
              <td>{v.remark || DASH}</td>
              <td>{v.projectCount}</td>
              <td>{formatDateTime(v.createdAt)}</td>
              <td className="cairn-table-actions cairn-col-actions">
                <Button small minimal icon="edit" text={t.edit} disabled={!subject.canManage} onClick={() => setEditing(v)} />
                <Button small minimal icon="trash" intent="danger" text={t.delete} disabled={!subject.canManage} onClick={() => removal.ask({ kind: 'one', row: v })} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
  return (
    <>
      <div className="cairn-subject-toolbar">
        <span className="cairn-grow" />
        <Button icon="add" intent="primary" text={t.addVersion} disabled={!subject.canManage} onClick={() => setEditing('new')} />
      </div>
      {body}
      {editing ? <VersionDialog key={editing === 'new' ? 'new' : editing.id} subjectId={subject.id} editing={editing} onClose={() => setEditing(null)} /> : null}
      {removal.element}
    </>
  );
}

export default function VersionScreen() {
  return <SettingsLayout tab="version">{(s) => <Card><Versions key={s.id} subject={s} /></Card>}</SettingsLayout>;
}
