// /desktop/library 报告库: the reports and SBOMs downloaded to this machine from every server
// profile (main's library, newest first), with their download state, checksum and the actions on
// the local copy. Public: it reads only main's files, so it works signed out and with the local
// platform stopped.
import { useEffect, useMemo, useState } from 'react';
import { Button, ButtonGroup, Card, Classes, HTMLSelect, HTMLTable, InputGroup, Intent, ProgressBar, Tag, Tooltip } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { IpcResult, LibraryEntry } from '../../../contract/ipc/desktop-contract.ts';
import { formatDateTime, formatFileSize, DASH } from '../../../contract/format.ts';
import { useProfilesQuery } from '../../api/desktopApi.ts';
import { toastNotifier as notify } from '../../app/toaster.ts';
import { desktopErrorMessage, invokeDesktop, type DesktopApi } from '../../platform/desktop.ts';
import { useConfirmDelete } from '../../common/list/useConfirmDelete.tsx';
import { Page } from '../../common/PageHeader.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../common/states.tsx';
import { actionsFor, isTransferring, profilesOf, progressOf, reviewUrl, shortSha } from './libraryModel.ts';
import { useLibrary } from './useLibrary.ts';
import { libraryZh as t } from '../../i18n/library.ts';
import './styles.ts';

/** The search box's text reaches main a moment after typing stops. */
function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

function StateCell({ entry, onRetry }: { entry: LibraryEntry; onRetry: () => void }) {
  const progress = progressOf(entry);
  if (isTransferring(entry.state)) {
    return (
      <div className="cairn-lib-progress" data-testid="library-progress">
        <div className="cairn-lib-progress-text">
          <span>{t.states[entry.state]}</span>
          <span className={Classes.TEXT_MUTED}>
            {formatFileSize(entry.received)}
            {entry.size > 0 ? ` / ${formatFileSize(entry.size)}` : ''}
            {progress !== undefined ? ` · ${Math.floor(progress * 100)}%` : ''}
          </span>
        </div>
        <ProgressBar value={progress} intent={entry.state === 'retrying' ? Intent.WARNING : Intent.PRIMARY} animate stripes />
      </div>
    );
  }
  if (entry.state === 'done') return <Tag minimal intent={Intent.SUCCESS} icon="tick-circle">{t.states.done}</Tag>;
  if (entry.state === 'cancelled') return <Tag minimal icon="disable">{t.states.cancelled}</Tag>;
  const corrupt = entry.state === 'corrupt';
  return (
    <span className="cairn-lib-state-row">
      <Tooltip content={corrupt ? t.corruptHint : (entry.error ?? t.states.failed)} className="cairn-lib-tooltip-target" popoverClassName="cairn-lib-tooltip">
        <Tag intent={Intent.DANGER} icon={corrupt ? 'warning-sign' : 'error'} interactive>
          {t.states[entry.state]}
        </Tag>
      </Tooltip>
      <Button size="small" variant="minimal" intent={Intent.PRIMARY} icon="refresh" text={corrupt ? t.actions.redownload : t.actions.retry} onClick={onRetry} />
    </span>
  );
}

export default function LibraryScreen() {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [profileId, setProfileId] = useState('');
  const debouncedQuery = useDebounced(query, 250);
  const library = useLibrary({ query: debouncedQuery, profileId });
  const profiles = useProfilesQuery();
  const [busy, setBusy] = useState<string | null>(null);

  // Profiles known to main plus any only the library remembers (a profile removed since).
  const profileOptions = useMemo(() => {
    const known = new Map((profiles.data?.profiles ?? []).map((p) => [p.id, p.name]));
    for (const p of profilesOf(library.entries)) if (!known.has(p.id)) known.set(p.id, p.name);
    return [{ value: '', label: t.allProfiles }, ...[...known].map(([value, label]) => ({ value, label }))];
  }, [profiles.data, library.entries]);

  /** Runs an action on an entry; an IpcError (e.g. the web host's `unsupported`) becomes a toast. */
  async function act<T>(entry: LibraryEntry, key: string, run: (api: DesktopApi) => Promise<IpcResult<T>>): Promise<T | undefined> {
    setBusy(`${entry.id}:${key}`);
    try {
      return await invokeDesktop(run);
    } catch (e) {
      notify.error(desktopErrorMessage(e, t.actionFailed));
      return undefined;
    } finally {
      setBusy(null);
    }
  }

  const verify = async (entry: LibraryEntry) => {
    const checked = await act(entry, 'verify', (api) => api.library.verify({ id: entry.id }));
    if (!checked) return;
    library.replace(checked);
    if (checked.state === 'corrupt') notify.error(t.verifyCorrupt);
    else notify.success(t.verified);
  };

  const retry = async (entry: LibraryEntry) => {
    // Its progress arrives as `library:progress` events, in order; the answer itself can be older
    // than the last event (a small file is done before the answer arrives), so it is not applied.
    const started = await act(entry, 'retry', (api) => api.library.retry({ id: entry.id }));
    if (started) notify.success(t.retried);
  };

  const cancel = async (entry: LibraryEntry) => {
    await act(entry, 'cancel', (api) => api.library.cancel({ id: entry.id }));
  };

  const removal = useConfirmDelete<LibraryEntry, string>({
    rowKey: (e) => e.id,
    removeOne: async (e) => {
      await invokeDesktop((api) => api.library.remove({ id: e.id }));
      library.drop(e.id);
    },
    texts: { title: t.removeTitle, one: (e) => t.removeBody(e.fileName), done: t.removed },
  });

  const filtered = debouncedQuery.trim() !== '' || profileId !== '';
  let body: React.ReactNode;
  if (library.loading && library.entries.length === 0) body = <LoadingState />;
  else if (library.error) body = <ErrorState title={t.loadFailed} message={library.error} onRetry={library.reload} />;
  else if (library.entries.length === 0) {
    body = filtered ? (
      <EmptyState icon="search" title={t.emptyFiltered} description={t.emptyFilteredBody} />
    ) : (
      <EmptyState icon="archive" title={t.empty} description={t.emptyBody} action={<Button icon="document-open" text={t.openReview} onClick={() => navigate('/desktop/review')} />} />
    );
  } else {
    body = (
      <Card className="cairn-table-card cairn-lib-card">
        <div className="cairn-lib-scroll">
          <HTMLTable className="cairn-table cairn-lib-table" striped data-testid="library-table">
            <thead>
              <tr>
                <th>{t.columns.fileName}</th>
                <th>{t.columns.format}</th>
                <th>{t.columns.profile}</th>
                <th>{t.columns.subject}</th>
                <th>{t.columns.project}</th>
                <th>{t.columns.task}</th>
                <th className="cairn-lib-num">{t.columns.size}</th>
                <th>{t.columns.downloadedAt}</th>
                <th>{t.columns.state}</th>
                <th>{t.columns.sha256}</th>
                <th className="cairn-col-actions">{t.columns.actions}</th>
              </tr>
            </thead>
            <tbody>
              {library.entries.map((e) => {
                const can = actionsFor(e.state);
                const isBusy = (key: string) => busy === `${e.id}:${key}`;
                return (
                  <tr key={e.id} data-testid="library-row" className={e.state === 'corrupt' ? 'cairn-lib-row-corrupt' : undefined}>
                    <td className="cairn-lib-file">
                      {can.view ? (
                        <a className="cairn-lib-file-name" title={e.fileName} onClick={() => navigate(reviewUrl(e.id))}>
                          {e.fileName}
                        </a>
                      ) : (
                        <span className="cairn-lib-file-name" title={e.fileName}>{e.fileName}</span>
                      )}
                    </td>
                    <td><Tag minimal>{t.formats[e.format]}</Tag></td>
                    <td className="cairn-lib-nowrap">{e.profileName}</td>
                    <td className="cairn-lib-clip" title={e.subjectName}>{e.subjectName || DASH}</td>
                    <td className="cairn-lib-clip" title={e.projectName}>{e.projectName || DASH}</td>
                    <td className="cairn-lib-nowrap">{e.taskId !== null ? t.taskId(e.taskId) : DASH}</td>
                    <td className="cairn-lib-num cairn-lib-nowrap">{e.size > 0 ? formatFileSize(e.size) : DASH}</td>
                    <td className="cairn-lib-nowrap">{e.downloadedAt ? formatDateTime(e.downloadedAt) : DASH}</td>
                    <td className="cairn-lib-state">
                      <StateCell entry={e} onRetry={() => void retry(e)} />
                    </td>
                    <td>
                      {e.sha256 ? (
                        <Tooltip content={<code className="cairn-lib-sha-full">{e.sha256}</code>}>
                          <code className="cairn-lib-sha">{shortSha(e.sha256)}</code>
                        </Tooltip>
                      ) : (
                        <span className={Classes.TEXT_MUTED} title={t.noSha}>{DASH}</span>
                      )}
                    </td>
                    <td className="cairn-col-actions">
                      <div className="cairn-row-actions">
                        <Button size="small" intent={Intent.PRIMARY} icon="eye-open" text={t.actions.view} disabled={!can.view} onClick={() => navigate(reviewUrl(e.id))} />
                        <ButtonGroup variant="minimal">
                          <Tooltip content={t.actions.openExternal}>
                            <Button icon="share" aria-label={t.actions.openExternal} disabled={!can.openExternal} loading={isBusy('open')} onClick={() => void act(e, 'open', (api) => api.library.openExternal({ id: e.id }))} />
                          </Tooltip>
                          <Tooltip content={t.actions.reveal}>
                            <Button icon="folder-open" aria-label={t.actions.reveal} disabled={!can.reveal} loading={isBusy('reveal')} onClick={() => void act(e, 'reveal', (api) => api.library.reveal({ id: e.id }))} />
                          </Tooltip>
                          <Tooltip content={t.actions.verify}>
                            <Button icon="endorsed" aria-label={t.actions.verify} disabled={!can.verify} loading={isBusy('verify')} onClick={() => void verify(e)} />
                          </Tooltip>
                          {can.cancel ? (
                            <Tooltip content={t.actions.cancel}>
                              <Button icon="stop" aria-label={t.actions.cancel} loading={isBusy('cancel')} onClick={() => void cancel(e)} />
                            </Tooltip>
                          ) : (
                            <Tooltip content={t.actions.redownload}>
                              <Button icon="refresh" aria-label={t.actions.redownload} disabled={!can.redownload} loading={isBusy('retry')} onClick={() => void retry(e)} />
                            </Tooltip>
                          )}
                          <Tooltip content={t.actions.remove}>
                            <Button icon="trash" intent={Intent.DANGER} aria-label={t.actions.remove} disabled={!can.remove} onClick={() => removal.ask({ kind: 'one', row: e })} />
                          </Tooltip>
                        </ButtonGroup>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
        <div className="cairn-table-note cairn-muted">{t.total(library.entries.length)}</div>
      </Card>
    );
  }

  return (
    <Page
      title={t.title}
      subtitle={t.subtitle}
      actions={<Button intent={Intent.PRIMARY} icon="document-open" text={t.openReview} onClick={() => navigate('/desktop/review')} />}
    >
      <div className="cairn-lib-filters">
        <InputGroup
          className="cairn-lib-search"
          leftIcon="search"
          placeholder={t.searchPlaceholder}
          aria-label={t.search}
          value={query}
          maxLength={200}
          onValueChange={setQuery}
          rightElement={query ? <Button variant="minimal" icon="cross" aria-label={t.cancel} onClick={() => setQuery('')} /> : undefined}
        />
        <HTMLSelect aria-label={t.profileFilter} value={profileId} onChange={(e) => setProfileId(e.currentTarget.value)} options={profileOptions} />
        <Button icon="refresh" text={t.refresh} loading={library.loading && library.entries.length > 0} onClick={library.reload} />
      </div>
      {body}
      {removal.element}
    </Page>
  );
}
