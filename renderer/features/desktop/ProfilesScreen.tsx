// /desktop/profiles: the analysis platforms the client connects to. List, add, edit, remove
// (not 本机), switch, and test the connection. Reachable from the login screen without a session.
import { useState } from 'react';
import { Button, ButtonGroup, Card, HTMLTable, Intent, Spinner, SpinnerSize, Tag, Tooltip } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { ConnectionTest, Profile } from '../../../contract/ipc/desktop-contract.ts';
import { formatDateTime } from '../../../contract/format.ts';
import { SUCCESS_MESSAGES } from '../../../contract/errors.ts';
import { useActivateProfileMutation, useProfilesQuery, useRemoveProfileMutation, useTestProfileMutation, type BridgeError } from '../../api/desktopApi.ts';
import { useAppDispatch, useAppSelector, selectSessionStatus } from '../../app/hooks.ts';
import { switchProfile } from '../../app/sessionFlows.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { desktopErrorMessage } from '../../platform/desktop.ts';
import { useConfirmDelete } from '../../common/list/useConfirmDelete.tsx';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { PlatformStatusTag } from '../../app/shell/PlatformStatusTag.tsx';
import { ProfileDialog } from './ProfileDialog.tsx';
import { zh } from '../../i18n/zh-CN.ts';

const t = zh.profiles;

type TestState = { running: true } | { running: false; result: ConnectionTest };

function TestResult({ state }: { state: TestState | undefined }) {
  if (!state) return null;
  if (state.running) {
    return (
      <span className="cairn-inline-status">
        <Spinner size={SpinnerSize.SMALL} /> {t.testing}
      </span>
    );
  }
  const { result } = state;
  return (
    <Tooltip content={result.message || undefined} disabled={!result.message}>
      <Tag minimal intent={result.ok ? Intent.SUCCESS : Intent.DANGER} icon={result.ok ? 'tick-circle' : 'error'} multiline>
        {result.ok ? t.testOk(result.latencyMs) : t.testFailed(result.message)}
      </Tag>
    </Tooltip>
  );
}

export default function ProfilesScreen() {
  const profiles = useProfilesQuery();
  const status = useAppSelector(selectSessionStatus);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [activate] = useActivateProfileMutation();
  const [remove] = useRemoveProfileMutation();
  const [test] = useTestProfileMutation();
  const [tests, setTests] = useState<Record<string, TestState>>({});
  const [dialog, setDialog] = useState<{ mode: 'add' } | { mode: 'edit'; profile: Profile } | null>(null);
  const [switching, setSwitching] = useState<string | null>(null);
  const signedIn = status === 'authenticated';

  const runTest = async (p: Profile) => {
    setTests((old) => ({ ...old, [p.id]: { running: true } }));
    try {
      const result = await test({ id: p.id }).unwrap();
      setTests((old) => ({ ...old, [p.id]: { running: false, result } }));
    } catch (e) {
      const message = (e as BridgeError).message ?? zh.messages.requestFailed;
      setTests((old) => ({ ...old, [p.id]: { running: false, result: { ok: false, latencyMs: null, message } } }));
    }
  };

  const makeActive = async (p: Profile) => {
    setSwitching(p.id);
    try {
      if (signedIn) await dispatch(switchProfile(p.id));
      else await activate({ id: p.id }).unwrap();
      notify.success(t.activated(p.name));
    } catch (e) {
      notify.error(desktopErrorMessage(e, (e as BridgeError).message ?? zh.messages.requestFailed));
    } finally {
      setSwitching(null);
    }
  };

  const removal = useConfirmDelete<Profile, string>({
    rowKey: (p) => p.id,
    removeOne: (p) => remove({ id: p.id }).unwrap(),
    texts: { title: t.removeTitle, one: (p) => t.removeBody(p.name), done: SUCCESS_MESSAGES.deleted },
  });

  const actions = (
    <>
      {!signedIn ? <Button icon="arrow-left" text={t.back} onClick={() => navigate('/login')} /> : null}
      <Button intent="primary" icon="add" text={t.add} onClick={() => setDialog({ mode: 'add' })} />
    </>
  );

  let body: React.ReactNode;
  if (profiles.isLoading) body = <LoadingState />;
  else if (profiles.isError) body = <ErrorState title={t.loadFailed} message={profiles.error.message} onRetry={() => void profiles.refetch()} />;
  else if (!profiles.data || profiles.data.profiles.length === 0) body = <EmptyState title={t.empty} icon="globe-network" />;
  else {
    const { profiles: list, activeId } = profiles.data;
    body = (
      <Card className="cairn-table-card">
        <div className="cairn-table-scroll">
          <HTMLTable className="cairn-table" interactive striped>
            <thead>
              <tr>
                <th>{t.columns.name}</th>
                <th>{t.columns.url}</th>
                <th>{t.columns.username}</th>
                <th>{t.columns.lastUsed}</th>
                <th>{t.columns.security}</th>
                <th className="cairn-col-actions">{t.columns.actions}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => {
                const isActive = p.id === activeId;
                const isLocal = p.kind === 'local';
                return (
                  <tr key={p.id} className={isActive ? 'cairn-row-active' : undefined}>
                    <td>
                      <div className="cairn-cell-title">
                        <span>{p.name}</span>
                        {isActive ? (
                          <Tag intent="success" minimal round icon="tick">
                            {t.active}
                          </Tag>
                        ) : null}
                      </div>
                      <div className="cairn-muted cairn-cell-sub">{t.kinds[p.kind]}</div>
                    </td>
                    <td>{isLocal ? <PlatformStatusTag /> : <code className="cairn-url">{p.url}</code>}</td>
                    <td>{p.username ?? <span className="cairn-muted">--</span>}</td>
                    <td>{p.lastUsedAt ? formatDateTime(p.lastUsedAt) : <span className="cairn-muted">{t.never}</span>}</td>
                    <td>
                      {isLocal ? (
                        <span className="cairn-muted">--</span>
                      ) : p.allowSelfSigned ? (
                        <Tag minimal intent="warning" icon="unlock">
                          {t.selfSigned}
                        </Tag>
                      ) : (
                        <Tag minimal icon="lock">
                          {t.strictTls}
                        </Tag>
                      )}
                    </td>
                    <td className="cairn-col-actions">
                      <div className="cairn-row-actions">
                        <ButtonGroup variant="minimal">
                          <Tooltip content={t.test}>
                            <Button icon="exchange" aria-label={t.test} onClick={() => void runTest(p)} />
                          </Tooltip>
                          <Tooltip content={t.edit}>
                            <Button icon="edit" aria-label={t.edit} onClick={() => setDialog({ mode: 'edit', profile: p })} />
                          </Tooltip>
                          <Tooltip content={isLocal ? t.localCannotRemove : t.remove}>
                            <Button icon="trash" intent="danger" aria-label={t.remove} disabled={isLocal} onClick={() => removal.ask({ kind: 'one', row: p })} />
                          </Tooltip>
                        </ButtonGroup>
                        {!isActive ? <Button size="small" icon="swap-horizontal" text={t.activate} loading={switching === p.id} onClick={() => void makeActive(p)} /> : null}
                      </div>
                      <TestResult state={tests[p.id]} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
        {signedIn ? <div className="cairn-table-note cairn-muted">{t.reloginNeeded}</div> : null}
      </Card>
    );
  }

  return (
    <Page title={t.title} subtitle={t.subtitle} actions={actions}>
      {body}
      {dialog ? <ProfileDialog profile={dialog.mode === 'edit' ? dialog.profile : null} onClose={() => setDialog(null)} /> : null}
      {removal.element}
    </Page>
  );
}
