// 镜像同步 (漏洞知识库, setup:knowledge:vul): the mirror address, the OSV ecosystems to sync, the
// schedule (every N hours, or off), 测试连接 (one ecosystem's all.zip: reachable, size, last
// modified, or why not), 立即同步 (with the saved settings) and each ecosystem's last result. Saved
// settings take effect at once; until saved, the CAIRN_KB_* environment values are shown.
import { useState } from 'react';
import { Button, Callout, Checkbox, FormGroup, H6, HTMLSelect, InputGroup, NumericInput, Switch, Tag } from '@blueprintjs/core';
import type { SyncOverview, SyncTestResult } from '../../../../contract/api/kb-import.ts';
import { SYNC_HOURS_MAX } from '../../../../contract/api/kb-import.ts';
import { formatDateTime, formatFileSize } from '../../../../contract/format.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { useRunSyncMutation, useSaveSyncSettingsMutation, useSyncSettingsQuery, useTestMirrorMutation } from '../../../api/vulnerabilityApi.ts';
import { FormDialog, type FormApi } from '../../../common/form/FormDialog.tsx';
import type { FieldErrors } from '../../../common/form/formErrors.ts';
import { ErrorState, LoadingState } from '../../../common/states.tsx';
import { kbImportZh as t } from '../../../i18n/kb-import.ts';
import './styles.ts';

export interface SyncForm {
  mirror: string;
  ecosystems: string[];
  scheduled: boolean;
  everyHours: number;
}

const FIELDS = ['mirror', 'ecosystems', 'everyHours'] as const;

export const formOf = (o: SyncOverview): SyncForm => ({
  mirror: o.settings.mirror,
  ecosystems: o.settings.ecosystems,
  scheduled: o.settings.everyHours > 0,
  everyHours: o.settings.everyHours > 0 ? o.settings.everyHours : 24,
});

/** What is saved: the schedule off is 0 hours. */
export const payloadOf = (v: SyncForm) => ({ mirror: v.mirror.trim(), ecosystems: v.ecosystems, everyHours: v.scheduled ? v.everyHours : 0 });

export function validate(v: SyncForm): FieldErrors<SyncForm> {
  const errors: FieldErrors<SyncForm> = {};
  const mirror = v.mirror.trim();
  if (mirror && !/^https?:\/\/[^\s/]+/i.test(mirror)) errors.mirror = '镜像地址只支持 http 或 https';
  if (mirror && v.ecosystems.length === 0) errors.ecosystems = '请至少选择一个要同步的生态';
  if (v.scheduled && (!Number.isInteger(v.everyHours) || v.everyHours < 1 || v.everyHours > SYNC_HOURS_MAX)) errors.everyHours = `间隔应为 1–${SYNC_HOURS_MAX} 小时`;
  return errors;
}

function TestResult({ result }: { result: SyncTestResult }) {
  return (
    <Callout intent={result.reachable ? 'success' : 'danger'} icon={result.reachable ? 'tick-circle' : 'error'} className="cairn-kb-sync-test" data-testid="kb-sync-test-result">
      <div><strong>{result.reachable ? t.testOk : t.testFailed}</strong>：{result.message}</div>
      <div className="cairn-mono cairn-break cairn-muted">{result.url}</div>
      {result.reachable ? (
        <div>
          {t.testSize}：{result.size === null ? '--' : formatFileSize(result.size)}
          {'　'}
          {t.testLastModified}：{result.lastModified ? formatDateTime(result.lastModified) : '--'}
        </div>
      ) : null}
    </Callout>
  );
}

function StateTable({ overview }: { overview: SyncOverview }) {
  const c = t.stateColumns;
  if (overview.state.length === 0) return <div className="cairn-muted">{t.stateEmpty}</div>;
  return (
    <table className="bp6-html-table bp6-compact cairn-kb-sync-state" data-testid="kb-sync-state">
      <thead>
        <tr><th>{c.ecosystem}</th><th>{c.status}</th><th>{c.bytes}</th><th>{c.completedAt}</th><th>{c.message}</th></tr>
      </thead>
      <tbody>
        {overview.state.map((s) => (
          <tr key={s.ecosystem}>
            <td>{s.ecosystem}</td>
            <td>{s.status === null ? <Tag minimal>{t.neverSynced}</Tag> : <Tag minimal intent={s.status === 2 ? 'success' : s.status === 3 ? 'danger' : 'primary'}>{s.statusLabel}</Tag>}</td>
            <td>{s.bytes ? formatFileSize(s.bytes) : '--'}</td>
            <td>{s.completedAt ? formatDateTime(s.completedAt) : '--'}</td>
            <td className="cairn-kb-sync-message" title={s.message}>{s.message || '--'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Fields({ form, overview }: { form: FormApi<SyncForm>; overview: SyncOverview }) {
  const { values, set, intent, group, id } = form;
  const [testEcosystem, setTestEcosystem] = useState('');
  const [test, testing] = useTestMirrorMutation();
  const [result, setResult] = useState<SyncTestResult | null>(null);
  const [testError, setTestError] = useState<string | null>(null);
  const [run, running] = useRunSyncMutation();
  const ecosystem = testEcosystem && values.ecosystems.includes(testEcosystem) ? testEcosystem : (values.ecosystems[0] ?? 'npm');
  const toggle = (name: string, on: boolean) => set('ecosystems', on ? [...values.ecosystems, name] : values.ecosystems.filter((e) => e !== name));

  const doTest = async () => {
    setResult(null);
    setTestError(null);
    try {
      setResult(await test({ mirror: values.mirror.trim(), ecosystem }).unwrap());
    } catch (e) {
      setTestError(apiErrorMessage(e));
    }
  };
  const doRun = async () => {
    try {
      await run().unwrap();
      notify.success(t.syncStarted);
    } catch (e) {
      notify.error(apiErrorMessage(e));
    }
  };

  return (
    <>
      <p className="cairn-muted">{t.syncIntro}</p>
      <Callout intent={overview.source === 'none' ? 'warning' : 'primary'} icon="info-sign" className="cairn-kb-sync-source">{t.source[overview.source]}</Callout>
      <FormGroup label={t.mirror} labelFor={id('mirror')} {...group('mirror', t.mirrorHelp)}>
        <InputGroup id={id('mirror')} intent={intent('mirror')} className="cairn-mono" value={values.mirror} maxLength={500} placeholder={t.mirrorPlaceholder} onValueChange={(v) => set('mirror', v)} />
      </FormGroup>
      <FormGroup label={t.ecosystems} labelFor={id('ecosystems')} {...group('ecosystems', t.ecosystemsHelp(values.ecosystems.length))}>
        <div id={id('ecosystems')} className="cairn-kb-sync-ecosystems" role="group" aria-label={t.ecosystems}>
          {overview.ecosystemsAvailable.map((name) => (
            <Checkbox key={name} label={name} checked={values.ecosystems.includes(name)} onChange={(e) => toggle(name, e.currentTarget.checked)} />
          ))}
        </div>
      </FormGroup>
      <div className="cairn-kb-sync-schedule">
        <Switch label={t.schedule} checked={values.scheduled} onChange={(e) => set('scheduled', e.currentTarget.checked)} />
        {values.scheduled ? (
          <FormGroup label={t.everyHours} labelFor={id('everyHours')} inline {...group('everyHours')}>
            <NumericInput id={id('everyHours')} intent={intent('everyHours')} min={1} max={SYNC_HOURS_MAX} value={values.everyHours} onValueChange={(n) => set('everyHours', Number.isFinite(n) ? n : 0)} />
          </FormGroup>
        ) : (
          <span className="cairn-muted">{t.scheduleOff}</span>
        )}
        {overview.nextRunAt ? <span className="cairn-muted">{t.nextRun(formatDateTime(overview.nextRunAt))}</span> : null}
      </div>
      <div className="cairn-kb-sync-actions">
        <HTMLSelect aria-label={t.testEcosystem} value={ecosystem} onChange={(e) => setTestEcosystem(e.currentTarget.value)} options={(values.ecosystems.length ? values.ecosystems : ['npm']).map((e) => ({ value: e, label: e }))} />
        <Button icon="satellite" text={testing.isLoading ? t.testing : t.test} loading={testing.isLoading} disabled={!values.mirror.trim()} onClick={() => void doTest()} />
        <Button icon="refresh" intent="primary" variant="outlined" text={overview.running ? t.syncRunning : t.syncNow} title={t.syncNowHint} loading={running.isLoading} disabled={overview.running || !overview.settings.mirror} onClick={() => void doRun()} />
      </div>
      {result ? <TestResult result={result} /> : null}
      {testError ? <Callout intent="danger" icon="error">{testError}</Callout> : null}
      <H6 className="cairn-form-section">{t.stateTitle}</H6>
      <StateTable overview={overview} />
    </>
  );
}

export function SyncSettingsDialog({ onClose }: { onClose: () => void }) {
  const [polling, setPolling] = useState(false);
  const q = useSyncSettingsQuery(undefined, { pollingInterval: polling ? 2000 : 0 });
  if (q.data && polling !== q.data.running) setPolling(q.data.running);
  const [save] = useSaveSyncSettingsMutation();
  return (
    <FormDialog<SyncForm>
      title={t.syncTitle}
      icon="cloud-download"
      className="cairn-kb-sync-dialog"
      idPrefix="kb-sync"
      onClose={onClose}
      initial={q.data ? formOf(q.data) : undefined}
      placeholder={q.isError ? <ErrorState message={apiErrorMessage(q.error)} onRetry={() => void q.refetch()} /> : <LoadingState />}
      validate={validate}
      submit={(v) => save(payloadOf(v)).unwrap()}
      success={t.saved}
      fields={FIELDS}
    >
      {(form) => (q.data ? <Fields form={form} overview={q.data} /> : null)}
    </FormDialog>
  );
}
