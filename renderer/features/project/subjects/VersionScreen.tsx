// 版本管理: versions of the subject (unique names); deleting one leaves its projects unlabelled.
import { Button, Card, Dialog, DialogBody, DialogFooter, FormGroup, HTMLTable, InputGroup, TextArea } from '@blueprintjs/core';
import { useState, type FormEvent } from 'react';
import type { SubjectDetail, VersionRow } from '../../../../contract/api/subject.ts';
import { DASH } from '../../../../contract/enums.ts';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { formatDateTime } from '../../../../contract/format.ts';
import { validateDescription, validateName } from '../../../../contract/validation.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useCreateVersionMutation, useDeleteVersionMutation, useUpdateVersionMutation, useVersionsQuery } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { useConfirmDelete } from '../../../common/list/useConfirmDelete.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { SettingsLayout } from './SettingsLayout.tsx';

const t = zh.subject;

function VersionDialog({ subjectId, editing, onClose }: { subjectId: number; editing: VersionRow | 'new' | null; onClose: () => void }) {
  const current = editing && editing !== 'new' ? editing : null;
  const [name, setName] = useState(current?.name ?? '');
  const [remark, setRemark] = useState(current?.remark ?? '');
  const [touched, setTouched] = useState(false);
  const [create, creating] = useCreateVersionMutation();
  const [update, updating] = useUpdateVersionMutation();
  const nameProblem = validateName(name);
  const remarkProblem = validateDescription(remark);
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    setTouched(true);
    if (nameProblem || remarkProblem) return;
    try {
      if (current) await update({ id: current.id, name, remark }).unwrap();
      else await create({ subjectId, name, remark }).unwrap();
      notify.success(current ? SUCCESS_MESSAGES.saved : SUCCESS_MESSAGES.added);
      onClose();
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };
  return (
    <Dialog isOpen={!!editing} onClose={onClose} title={current ? t.editVersion : t.addVersion} icon="tag" style={{ width: 480 }}>
      <form onSubmit={(e) => void submit(e)}>
        <DialogBody>
          <FormGroup label={t.versionName} labelFor="version-name" labelInfo="*" intent={touched && nameProblem ? 'danger' : 'none'} helperText={touched ? nameProblem : undefined}>
            <InputGroup id="version-name" value={name} onValueChange={setName} autoFocus />
          </FormGroup>
          <FormGroup label={t.remark} labelFor="version-remark" intent={touched && remarkProblem ? 'danger' : 'none'} helperText={touched ? remarkProblem : undefined}>
            <TextArea id="version-remark" fill value={remark} onChange={(e) => setRemark(e.currentTarget.value)} />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={<>
          <Button text={t.cancel} onClick={onClose} />
          <GuardedButton type="submit" intent="primary" text={t.save} loading={creating.isLoading || updating.isLoading} />
        </>} />
      </form>
    </Dialog>
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
    <HTMLTable className="cairn-table" compact striped>
      <thead><tr><th>{t.versionColumns.name}</th><th>{t.versionColumns.remark}</th><th>{t.versionColumns.projects}</th><th>{t.versionColumns.createdAt}</th><th>{t.columns.actions}</th></tr></thead>
      <tbody>
        {list.data.map((v) => (
          <tr key={v.id}>
            <td>{v.name}</td>
            <td>{v.remark || DASH}</td>
            <td>{v.projectCount}</td>
            <td>{formatDateTime(v.createdAt)}</td>
            <td className="cairn-table-actions">
              <Button small minimal icon="edit" text={t.edit} disabled={!subject.canManage} onClick={() => setEditing(v)} />
              <Button small minimal icon="trash" intent="danger" text={t.delete} disabled={!subject.canManage} onClick={() => removal.ask({ kind: 'one', row: v })} />
            </td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
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
