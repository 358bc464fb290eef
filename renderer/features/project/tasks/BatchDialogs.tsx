// The task list's batch dialogs: timing for many projects (PATCH /api/project/batch/cron) and a
// new owner for many projects (POST /api/project/batch/update/user). Both end with the platform's
// success and failure counts and the reasons of the failures.
import { useState, type ReactNode } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import type { BatchResult } from '../../../../contract/api/task.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useProjectBatchCronMutation, useProjectBatchOwnerMutation, useProjectOwnerOptionsQuery } from '../../../api/taskApi.ts';
import { TimingFields } from './TimingFields.tsx';
import { initialTiming, timingBody } from './projectForm.ts';
import { zh } from '../../../i18n/zh-CN.ts';
import { ErrorCallout } from '../../../common/states.tsx';

const t = zh.project;

/** Success and failure counts with the failed projects' reasons. */
export function BatchOutcome({ result, message }: { result: BatchResult; message: string }) {
  return (
    <Callout intent={result.failNum > 0 ? 'warning' : 'success'} className="cairn-result-callout" role="status">
      <div>{message}</div>
      {result.failures.length ? (
        <ul className="cairn-failure-list">
          {result.failures.map((f, i) => (
            <li key={`${f.projectId ?? f.projectName}-${i}`}>
              <strong>{f.projectName}</strong>：{f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </Callout>
  );
}


/**
 * The frame both batch dialogs share: the form, then the platform's error or the outcome; before
 * the run 取消 / the apply button, after it 完成 (which reports a change to the list).
 */
function BatchDialog(props: {
  title: string;
  onClose: (changed: boolean) => void;
  /** Sends the batch; the answer becomes the outcome, or its error the message. */
  run: () => Promise<{ data: BatchResult } | { error: unknown }>;
  running: boolean;
  applyText: string;
  applyDisabled?: boolean;
  doneMessage: (result: BatchResult) => string;
  children: ReactNode;
}) {
  const { title, onClose, run, running, applyText, applyDisabled, doneMessage, children } = props;
  const [result, setResult] = useState<BatchResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const apply = async () => {
    if (applyDisabled) return;
    setError(null);
    const answer = await run();
    if ('error' in answer) setError(apiErrorMessage(answer.error));
    else setResult(answer.data);
  };
  return (
    <Dialog isOpen title={title} onClose={() => onClose(result !== null)} className="cairn-dialog">
      <DialogBody>
        {children}
        <ErrorCallout message={error} className="cairn-result-callout" />
        {result ? <BatchOutcome result={result} message={doneMessage(result)} /> : null}
      </DialogBody>
      <DialogFooter
        actions={
          result ? (
            <Button intent="primary" text={t.batch.done} onClick={() => onClose(true)} />
          ) : (
            <>
              <Button text={t.form.cancel} onClick={() => onClose(false)} />
              <Button intent="primary" text={applyText} disabled={applyDisabled} loading={running} onClick={() => void apply()} />
            </>
          )
        }
      />
    </Dialog>
  );
}

export function BatchCronDialog({ projectIds, onClose }: { projectIds: number[]; onClose: (changed: boolean) => void }) {
  const [timing, setTiming] = useState(() => ({ ...initialTiming(), enableTiming: true }));
  const [save, saving] = useProjectBatchCronMutation();
  // Code -1 is no type: timing is then never disabled by the type (each project is checked on the platform).
  const run = () => save({ projectIds, ...timingBody(timing, -1), enableTiming: timing.enableTiming });
  return (
    <BatchDialog title={t.cron.title} onClose={onClose} run={run} running={saving.isLoading} applyText={t.cron.apply} doneMessage={(r) => t.cron.done(r.successNum, r.failNum)}>
      <p className="cairn-muted">{t.list.selected(projectIds.length)}。{t.cron.help}</p>
      <TimingFields timing={timing} onChange={setTiming} />
    </BatchDialog>
  );
}

export function BatchOwnerDialog({ projectIds, onClose }: { projectIds: number[]; onClose: (changed: boolean) => void }) {
  const users = useProjectOwnerOptionsQuery();
  const [userId, setUserId] = useState<number | null>(null);
  const [save, saving] = useProjectBatchOwnerMutation();
  return (
    <BatchDialog
      title={t.owner.title}
      onClose={onClose}
      // Without a user the apply button is disabled, so 0 is never sent.
      run={() => save({ projectIds, userId: userId ?? 0 })}
      running={saving.isLoading}
      applyText={t.owner.apply}
      applyDisabled={!userId}
      doneMessage={(r) => t.owner.done(r.successNum, r.failNum)}
    >
      <p className="cairn-muted">{t.list.selected(projectIds.length)}</p>
      <FormGroup label={t.owner.user} labelFor="owner-user" helperText={users.isError ? apiErrorMessage(users.error) : undefined}>
        <HTMLSelect id="owner-user" fill value={userId ?? ''} onChange={(e) => setUserId(e.currentTarget.value ? Number(e.currentTarget.value) : null)}>
          <option value="">{t.owner.placeholder}</option>
          {(users.data ?? []).map((u) => (
            <option key={u.userId} value={u.userId}>{u.name ? `${u.name}（${u.username}）` : u.username}</option>
          ))}
        </HTMLSelect>
      </FormGroup>
    </BatchDialog>
  );
}
