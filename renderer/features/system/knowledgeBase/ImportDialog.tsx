// 导入漏洞数据 (漏洞知识库, setup:knowledge:vul): files or folders are picked or dropped and go
// through the chunked, resumable, checksummed upload (common/UploadDropZone: main's upload service
// in Electron, staged through the host in the web host; a folder is packed into a zip first).
// 开始导入 turns the completed uploads into one queued import job; the dialog then follows the
// job's record (排队中 → 导入中 with progress → its outcome), and can cancel it.
import { useCallback, useState } from 'react';
import { Alert, Button, Callout, Dialog, DialogBody, DialogFooter, Intent, ProgressBar, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useCancelImportMutation, useImportRecordQuery, useImportUploadsMutation } from '../../../api/vulnerabilityApi.ts';
import { UploadDropZone } from '../../../common/UploadDropZone.tsx';
import type { UploadedFile } from '../../../common/uploads.ts';
import { GuardedButton } from '../../../common/GuardedButton.tsx';
import { kbImportZh as t } from '../../../i18n/kb-import.ts';
import { ImportCounts, ImportStatusTag, isOpenImport, useRefreshWhenImportEnds } from './importStatus.tsx';
import './styles.ts';

/** What the import reads: OSV zip/JSON/YAML, NVD .json/.json.gz, CNNVD/CNVD .csv/.json; folders are zipped. */
export const IMPORT_ACCEPT = ['.zip', '.json', '.json.gz', '.yaml', '.yml', '.csv'];
const POLL_MS = 1000;

function ImportProgress({ recordId, onFiles }: { recordId: number; onFiles: () => void }) {
  const [polling, setPolling] = useState(true);
  const q = useImportRecordQuery(recordId, { pollingInterval: polling ? POLL_MS : 0 });
  const r = q.data;
  const open = r ? isOpenImport(r.status) : true;
  if (polling !== open) setPolling(open);
  useRefreshWhenImportEnds(open);
  if (!r) return q.isError ? <Callout intent="danger">{apiErrorMessage(q.error)}</Callout> : <ProgressBar />;
  return (
    <div className="cairn-kb-import-progress" data-testid="kb-import-progress">
      <div className="cairn-kb-import-progress-head">
        <ImportStatusTag r={r} />
        <span className="cairn-kb-import-progress-name" title={r.name}>{r.name}</span>
        <span className="cairn-muted">{r.progress}%</span>
      </div>
      <ProgressBar intent={r.status === 3 ? 'danger' : r.status === 2 ? 'success' : 'primary'} value={r.status === 4 ? undefined : Math.max(0, Math.min(100, r.progress)) / 100} animate={open} stripes={open} />
      <ImportCounts r={r} />
      {r.status === 4 ? <div className="cairn-muted">{t.queuedHint}</div> : r.status === 1 ? <div className="cairn-muted">{t.runningHint}</div> : null}
      {!open && r.message ? <Callout intent={r.status === 2 ? 'success' : r.status === 5 ? 'warning' : 'danger'}>{r.message}</Callout> : null}
      {!open && r.fileCount > 0 ? <Button variant="minimal" intent="primary" icon="list" text={t.viewFiles} onClick={onFiles} /> : null}
    </div>
  );
}

export function ImportDialog({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [uploaded, setUploaded] = useState<UploadedFile[]>([]);
  const [active, setActive] = useState(0);
  const [recordId, setRecordId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const [start, starting] = useImportUploadsMutation();
  const [cancel, cancelling] = useCancelImportMutation();
  const record = useImportRecordQuery(recordId ?? 0, { skip: recordId === null });
  const open = recordId !== null && (!record.data || isOpenImport(record.data.status));
  const onUploaded = useCallback((file: UploadedFile) => setUploaded((list) => [...list, file]), []);
  const onActive = useCallback((n: number) => setActive(n), []);
  const records = () => navigate('/system/knowledgeBase/vul/batch');

  const submit = async () => {
    setError(null);
    try {
      const answer = await start(uploaded.map((u) => u.uploadId)).unwrap();
      setRecordId(answer.recordId);
    } catch (e) {
      setError(apiErrorMessage(e));
    }
  };

  const doCancel = async () => {
    setConfirm(false);
    if (recordId === null) return;
    try {
      await cancel(recordId).unwrap();
    } catch (e) {
      setError(apiErrorMessage(e));
    }
  };

  return (
    <Dialog isOpen onClose={onClose} title={t.importTitle} icon="import" className="cairn-dialog cairn-kb-import-dialog" canOutsideClickClose={false}>
      <DialogBody>
        {recordId === null ? (
          <>
            <p className="cairn-muted">{t.importIntro}</p>
            <Callout icon="info-sign" title={t.formatsTitle} className="cairn-kb-import-formats">
              <ul>
                {t.formats.map((line) => <li key={line}>{line}</li>)}
              </ul>
            </Callout>
            <UploadDropZone accept={IMPORT_ACCEPT} multiple folders="zip" label={t.uploadLabel} onUploaded={onUploaded} onActive={onActive} />
          </>
        ) : (
          <ImportProgress recordId={recordId} onFiles={records} />
        )}
        {error ? <Callout intent="danger" icon="error" role="alert" className="cairn-dialog-error">{error}</Callout> : null}
      </DialogBody>
      <DialogFooter
        minimal={false}
        actions={
          recordId === null ? (
            <>
              <Button text={t.close} onClick={onClose} />
              <GuardedButton
                intent="primary"
                icon="import"
                loading={starting.isLoading}
                disabled={uploaded.length === 0 || active > 0}
                title={active > 0 ? t.waitUploads : undefined}
                text={t.start(uploaded.length)}
                onClick={() => void submit()}
              />
            </>
          ) : (
            <>
              <Button icon="history" text={t.viewRecords} onClick={records} />
              {open ? <Button intent="danger" icon="disable" text={cancelling.isLoading ? t.cancelling : t.cancelImport} loading={cancelling.isLoading} onClick={() => setConfirm(true)} /> : null}
              <Button intent={open ? 'none' : 'primary'} text={open ? t.closeRunning : t.close} onClick={onClose} />
            </>
          )
        }
      >
        {recordId === null && uploaded.length > 0 ? <Tag minimal intent={Intent.SUCCESS}>{t.uploadedCount(uploaded.length)}</Tag> : null}
      </DialogFooter>
      <Alert isOpen={confirm} intent="danger" icon="disable" confirmButtonText={t.cancelImport} cancelButtonText={t.close} onConfirm={() => void doCancel()} onCancel={() => setConfirm(false)}>
        {t.cancelConfirm}
      </Alert>
    </Dialog>
  );
}
