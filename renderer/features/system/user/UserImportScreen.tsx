// /system/user/import 导入用户 (setup:user:user:list): download the .xlsx template (the roles and
// groups there are now listed in its 说明 sheet), upload the filled one through the chunked upload,
// import it, and see the result at once: the counts and the refused rows with their reasons. Every
// import is kept in 导入记录 (/system/user/record).
import { useCallback, useState } from 'react';
import { Button, Callout, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { UserImportRecord } from '../../../../contract/api/user.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { routeTitle } from '../../../../contract/routes.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useImportUserUploadMutation, useUserImportTemplateMutation } from '../../../api/userApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { Page } from '../../../common/PageHeader.tsx';
import { Panel } from '../../../common/Panel.tsx';
import { UploadDropZone } from '../../../common/UploadDropZone.tsx';
import type { UploadedFile } from '../../../common/uploads.ts';
import { usersZh as t } from '../../../i18n/users.ts';
import { ImportRows } from './ImportRows.tsx';
import './user.css';

const PATH = '/system/user/import';

/** Saves bytes the platform sent as base64 under their file name (the browser's download). */
function saveBase64(fileName: string, base64: string): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export default function UserImportScreen() {
  const navigate = useNavigate();
  const [template, templateState] = useUserImportTemplateMutation();
  const [start, startState] = useImportUserUploadMutation();
  const [uploaded, setUploaded] = useState<UploadedFile | null>(null);
  const [active, setActive] = useState(0);
  const [record, setRecord] = useState<UserImportRecord | null>(null);
  const onUploaded = useCallback((file: UploadedFile) => setUploaded(file), []);

  const download = async () => {
    try {
      const file = await template().unwrap();
      saveBase64(file.fileName, file.base64);
      notify.success(t.templateSaved);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  const run = async () => {
    if (!uploaded) return;
    try {
      const answer = await start({ uploadId: uploaded.uploadId }).unwrap();
      setRecord(answer);
      setUploaded(null);
      notify.success(ADMIN_SUCCESS_MESSAGES.templateImported);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  return (
    <Page title={routeTitle(PATH)} subtitle={t.importSubtitle} actions={<Button icon="history" text={t.viewRecords} onClick={() => void navigate('/system/user/record')} />}>
      <div className="cairn-user-import">
        <Panel title={t.step1}>
          <Button icon="download" intent="primary" text={t.template} loading={templateState.isLoading} onClick={() => void download()} />
        </Panel>
        <Panel title={t.step2}>
          <UploadDropZone accept={['.xlsx']} label={t.uploadLabel} onUploaded={onUploaded} onActive={setActive} />
          <div className="cairn-user-import-step">
            <Button icon="import" intent="primary" text={startState.isLoading ? t.importing : t.start} loading={startState.isLoading}
              disabled={!uploaded || active > 0} onClick={() => void run()} />
          </div>
        </Panel>
        {record ? (
          <Panel title={t.result}>
            <Callout intent={record.status === 2 ? (record.failed ? 'warning' : 'success') : 'danger'} icon={record.status === 2 ? 'tick-circle' : 'error'}>
              <Tag minimal>{record.fileName}</Tag> {record.statusLabel}：{record.message || t.resultCounts(record.total, record.succeeded, record.failed)}
            </Callout>
            {record.total > 0 ? <div className="cairn-user-import-result"><ImportRows recordId={record.id} failedFirst={record.failed > 0} /></div> : null}
          </Panel>
        ) : null}
      </div>
    </Page>
  );
}
