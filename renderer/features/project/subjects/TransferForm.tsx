// Transfer a subject to another user: the dialog of the list and the 数据转移 tab share it.
import { Button, Callout, Dialog, DialogBody, FormGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useTransferSubjectMutation, useUsersForAddQuery } from '../../../api/subjectApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { zh } from '../../../i18n/zh-CN.ts';
import { UserPicker } from './UserPicker.tsx';

const t = zh.subject;

export function TransferForm({ subjectId, ownerId, onDone, onCancel }: { subjectId: number; ownerId: number | null; onDone?: () => void; onCancel?: () => void }) {
  const [picked, setPicked] = useState<number[]>([]);
  // Everyone but the current owner: members and non-members alike may take a subject over.
  const candidates = useUsersForAddQuery({});
  const [transfer, transferring] = useTransferSubjectMutation();
  const users = (candidates.data ?? []).filter((u) => u.userId !== ownerId);
  const submit = async () => {
    if (!picked[0]) return;
    try {
      await transfer({ subjectId, userId: picked[0] }).unwrap();
      notify.success(SUCCESS_MESSAGES.transferred);
      setPicked([]);
      onDone?.();
    } catch (err) {
      notify.error(apiErrorMessage(err));
    }
  };
  return (
    <div>
      <Callout intent="primary" icon="info-sign">{t.transferHint}</Callout>
      <FormGroup label={t.newOwner} labelInfo="*" style={{ marginTop: 12 }}>
        <UserPicker users={users} selected={picked} onChange={setPicked} single />
      </FormGroup>
      <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
        {onCancel ? <Button text={t.cancel} onClick={onCancel} /> : null}
        <GuardedButton intent="primary" text={t.doTransfer} disabled={!picked[0]} loading={transferring.isLoading} onClick={() => void submit()} />
      </div>
    </div>
  );
}

export function TransferDialog({ subject, onClose }: { subject: { id: number; name: string; ownerId: number | null } | null; onClose: () => void }) {
  return (
    <Dialog isOpen={!!subject} onClose={onClose} title={subject ? t.transferTitle(subject.name) : ''} icon="swap-horizontal" style={{ width: 520 }}>
      <DialogBody>{subject ? <TransferForm subjectId={subject.id} ownerId={subject.ownerId} onDone={onClose} onCancel={onClose} /> : null}</DialogBody>
    </Dialog>
  );
}
