// 同步外部用户: the source GET /api/suzhou/import reads (an http(s) URL answering JSON or CSV, and
// the role new users get), saved with 保存设置; 立即同步 saves and synchronises, then shows the
// counts and each skipped entry with its reason.
import { useEffect, useState } from 'react';
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import type { SyncResult, SyncSource } from '../../../../contract/api/user.ts';
import { ADMIN_SUCCESS_MESSAGES } from '../../../../contract/errors.ts';
import { apiErrorMessage } from '../../../api/baseQuery.ts';
import { useSaveUserSyncSourceMutation, useSyncExternalUsersMutation, useUserSyncSourceQuery } from '../../../api/userApi.ts';
import { useRoleListQuery } from '../../../api/roleApi.ts';
import { toastNotifier as notify } from '../../../app/toaster.ts';
import { usersZh as t } from '../../../i18n/users.ts';

export function SyncDialog({ onClose }: { onClose: () => void }) {
  const source = useUserSyncSourceQuery();
  const roles = useRoleListQuery();
  const [save, saving] = useSaveUserSyncSourceMutation();
  const [sync, syncing] = useSyncExternalUsersMutation();
  const [values, setValues] = useState<SyncSource>({ url: '', format: 'json', defaultRoleId: null });
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<SyncResult | null>(null);
  // The saved source fills the fields once, when it arrives: never over what the administrator
  // has typed meanwhile (nor again after a save refetches it).
  const [loaded, setLoaded] = useState(false);
  const [edited, setEdited] = useState(false);
  useEffect(() => {
    if (!source.data || loaded) return;
    setLoaded(true);
    if (!edited) setValues(source.data);
  }, [source.data, loaded, edited]);
  const edit = (change: (v: SyncSource) => SyncSource) => { setEdited(true); setValues(change); };

  const run = async (andSync: boolean) => {
    setError(null);
    try {
      await save(values).unwrap();
      if (!andSync) {
        notify.success(ADMIN_SUCCESS_MESSAGES.saved);
        return;
      }
      setResult(await sync().unwrap());
      notify.success(ADMIN_SUCCESS_MESSAGES.synced);
    } catch (e) {
      setError(apiErrorMessage(e));
    }
  };

  return (
    <Dialog isOpen title={t.syncTitle} icon="refresh" className="cairn-dialog" style={{ width: 640 }} onClose={onClose}>
      <DialogBody>
        <p className="cairn-muted">{t.syncIntro}</p>
        <FormGroup label={t.syncUrl} labelFor="user-sync-url">
          <InputGroup id="user-sync-url" value={values.url} placeholder={t.syncUrlPlaceholder} maxLength={500}
            onValueChange={(url) => edit((v) => ({ ...v, url }))} />
        </FormGroup>
        <FormGroup label={t.syncFormat} labelFor="user-sync-format" inline>
          <HTMLSelect id="user-sync-format" value={values.format} options={[{ value: 'json', label: 'JSON' }, { value: 'csv', label: 'CSV' }]}
            onChange={(e) => edit((v) => ({ ...v, format: e.currentTarget.value as SyncSource['format'] }))} />
        </FormGroup>
        <FormGroup label={t.syncRole} labelFor="user-sync-role" inline>
          <HTMLSelect id="user-sync-role" value={values.defaultRoleId ?? ''}
            options={[{ value: '', label: t.syncRoleDefault }, ...(roles.data ?? []).map((r) => ({ value: String(r.id), label: r.name }))]}
            onChange={(e) => edit((v) => ({ ...v, defaultRoleId: e.currentTarget.value ? Number(e.currentTarget.value) : null }))} />
        </FormGroup>
        {error ? <Callout intent="danger" icon="error">{error}</Callout> : null}
        {result ? (
          <Callout intent={result.skipped.length ? 'warning' : 'success'} icon="tick-circle" title={t.syncResult(result.total, result.created, result.updated, result.unchanged, result.skipped.length)}>
            {result.skipped.length ? (
              <ul className="cairn-user-sync-skipped">
                {result.skipped.slice(0, 50).map((s, i) => <li key={`${s.username}-${i}`}>{s.username || '--'}：{s.reason}</li>)}
              </ul>
            ) : null}
          </Callout>
        ) : null}
      </DialogBody>
      <DialogFooter actions={(
        <>
          <Button text={t.close} onClick={onClose} />
          <Button text={t.save} loading={saving.isLoading} onClick={() => void run(false)} />
          <Button intent="primary" icon="refresh" text={t.syncNow} loading={syncing.isLoading} disabled={!values.url.trim()} onClick={() => void run(true)} />
        </>
      )} />
    </Dialog>
  );
}
