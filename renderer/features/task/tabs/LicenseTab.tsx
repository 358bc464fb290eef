// 许可证: three sub-tabs (sub=license|copyright|conflict in the URL) — the licences recognised in
// the run with their level, copyleft, how they were found, components and files; the copyright
// holders with their statements and files; the licence conflicts against the project's outbound
// licence with a verdict and a one-sentence explanation.
import { useState, type ReactNode } from 'react';
import { Callout, Card, HTMLTable, SegmentedControl, Tag, type Intent } from '@blueprintjs/core';
import type { ConflictRow, CopyrightRow, LicenseUsageRow } from '../../../../contract/api/result.ts';
import { useCopyrightListQuery, useLicenseConflictQuery, useResultLicenseListQuery } from '../../../api/resultApi.ts';
import { KeywordSearch } from '../../../common/filters.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../common/states.tsx';
import { Pager } from '../../bug/Pager.tsx';
import { LevelTag } from '../../bug/levels.tsx';
import { useTaskView } from '../context.ts';
import { zh } from '../../../i18n/zh-CN.ts';

const t = zh.task.license;
const c = t.columns;

interface ListQ<T> {
  isLoading: boolean;
  isError: boolean;
  isFetching: boolean;
  error?: { message?: string | undefined } | undefined;
  data?: { content: T[]; total: number } | undefined;
  refetch: () => unknown;
}

function Paged<T>({ q, empty, filtered, page, setPage, table }: { q: ListQ<T>; empty: string; filtered: boolean; page: number; setPage: (n: number) => void; table: (rows: T[]) => ReactNode }) {
  if (q.isLoading) return <LoadingState />;
  if (q.isError) return <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  if (!q.data || q.data.content.length === 0) return filtered ? <EmptyState title={t.emptyFiltered} description={t.emptyFilteredBody} icon="search" /> : <EmptyState title={empty} icon="document" />;
  return (
    <Card className={q.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
      {table(q.data.content)}
      <Pager page={page} size={15} total={q.data.total} onPage={setPage} />
    </Card>
  );
}

const more = (shown: number, total: number) => (total > shown ? <span className="cairn-muted"> {t.more(total)}</span> : null);

function Licenses() {
  const { projectId, run } = useTaskView();
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const q = useResultLicenseListQuery({ projectId, query: { page, size: 15, taskId: run.id, ...(applied ? { keyword: applied } : {}) } });
  return (
    <>
      <KeywordSearch label={t.keyword} placeholder={t.keywordLicense} value={keyword} onValueChange={setKeyword} onSearch={(k) => { setApplied(k); setPage(1); }} />
      <Paged<LicenseUsageRow>
        q={q}
        empty={t.empty}
        filtered={Boolean(applied)}
        page={page}
        setPage={setPage}
        table={(rows) => (
          <HTMLTable className="cairn-table cairn-result-license-table" striped compact>
            <thead>
              <tr>
                <th>{c.spdx}</th>
                <th>{c.level}</th>
                <th>{c.copyleft}</th>
                <th>{c.sources}</th>
                <th>{c.components}</th>
                <th>{c.files}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.spdxId}>
                  <td>
                    {r.licenseId ? <a href={`#/license/details?id=${r.licenseId}`}>{r.spdxId}</a> : <b>{r.spdxId}</b>}
                    {r.name !== r.spdxId ? <div className="cairn-muted cairn-cell-sub">{r.name}</div> : null}
                  </td>
                  <td>
                    <LevelTag level={r.level} />
                  </td>
                  <td>{r.copyleft ? t.copyleft[r.copyleft] ?? r.copyleft : '--'}</td>
                  <td>{r.sources.map((s) => zh.task.componentDetail.licenseSource[s] ?? s).join('、')}</td>
                  <td>
                    {r.components.map((x) => `${x.name}${x.version ? `@${x.version}` : ''}`).join(', ')}
                    {more(r.components.length, r.componentCount)}
                  </td>
                  <td className="cairn-mono cairn-break">
                    {r.files.map((f, i) => (
                      <div key={`${f.file}:${i}`}>
                        {f.file}
                        {f.startLine ? `:${f.startLine}` : ''}
                      </div>
                    ))}
                    {more(r.files.length, r.fileCount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      />
    </>
  );
}

function Copyrights() {
  const { projectId, run } = useTaskView();
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const q = useCopyrightListQuery({ projectId, query: { page, size: 15, taskId: run.id, ...(applied ? { keyword: applied } : {}) } });
  return (
    <>
      <KeywordSearch label={t.keyword} placeholder={t.keywordCopyright} value={keyword} onValueChange={setKeyword} onSearch={(k) => { setApplied(k); setPage(1); }} />
      <Paged<CopyrightRow>
        q={q}
        empty={t.emptyCopyright}
        filtered={Boolean(applied)}
        page={page}
        setPage={setPage}
        table={(rows) => (
          <HTMLTable className="cairn-table" striped compact>
            <thead>
              <tr>
                <th>{c.holder}</th>
                <th>{c.statements}</th>
                <th>{c.authors}</th>
                <th>{c.files}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.holder}>
                  <td>
                    <b>{r.holder}</b>
                  </td>
                  <td>
                    {r.statements.map((s) => (
                      <div key={s} className="cairn-break">
                        {s}
                      </div>
                    ))}
                    {more(r.statements.length, r.statementCount)}
                  </td>
                  <td>{r.authors.join('、') || '--'}</td>
                  <td className="cairn-mono cairn-break">
                    {r.files.map((f, i) => (
                      <div key={`${f.file}:${i}`}>{`${f.file}:${f.line}`}</div>
                    ))}
                    {more(r.files.length, r.fileCount)}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      />
    </>
  );
}

const VERDICT_INTENT: Record<string, Intent> = { compatible: 'success', incompatible: 'danger', unknown: 'none' };

function Conflicts() {
  const { projectId, run } = useTaskView();
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [verdict, setVerdict] = useState<'' | 'compatible' | 'incompatible' | 'unknown'>('');
  const [page, setPage] = useState(1);
  const q = useLicenseConflictQuery({ projectId, query: { page, size: 15, taskId: run.id, ...(applied ? { keyword: applied } : {}), ...(verdict ? { verdict } : {}) } });
  const d = q.data;
  return (
    <>
      {d ? (
        d.outboundLicense ? (
          <Callout intent="primary" icon="info-sign" className="cairn-outbound">
            {t.outbound}：<b className="cairn-mono">{d.outboundLicense}</b>
          </Callout>
        ) : (
          <Callout intent="warning" icon="warning-sign" className="cairn-outbound">
            {t.outboundNone}
          </Callout>
        )
      ) : null}
      <div className="cairn-filter-row">
        <SegmentedControl
          aria-label={c.verdict}
          value={verdict || 'all'}
          onValueChange={(v) => { setVerdict(v === 'all' ? '' : (v as typeof verdict)); setPage(1); }}
          options={[
            { value: 'all', label: zh.task.bug.all },
            ...(['incompatible', 'unknown', 'compatible'] as const).map((k) => ({ value: k, label: `${t.verdicts[k]} ${d ? d.totals[k] : ''}` })),
          ]}
        />
        <KeywordSearch label={t.keyword} placeholder={t.keywordConflict} value={keyword} onValueChange={setKeyword} onSearch={(k) => { setApplied(k); setPage(1); }} />
      </div>
      <Paged<ConflictRow>
        q={q}
        empty={t.emptyConflict}
        filtered={Boolean(applied || verdict)}
        page={page}
        setPage={setPage}
        table={(rows) => (
          <HTMLTable className="cairn-table" striped compact>
            <thead>
              <tr>
                <th>{c.component}</th>
                <th>{c.expression}</th>
                <th>{c.verdict}</th>
                <th>{c.explanation}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.componentId}>
                  <td className="cairn-nowrap">
                    {r.name}
                    <span className="cairn-muted">{r.version ? `@${r.version}` : ''}</span>
                  </td>
                  <td className="cairn-mono">
                    {r.licenseExpression ?? '--'}
                    {r.chosen ? <div className="cairn-muted cairn-cell-sub">{t.chosen(r.chosen)}</div> : null}
                  </td>
                  <td>
                    <Tag intent={VERDICT_INTENT[r.verdict] ?? 'none'} minimal={r.verdict !== 'incompatible'}>
                      {t.verdicts[r.verdict] ?? r.verdict}
                    </Tag>
                    {r.conflicting.map((x) => (
                      <Tag key={x} minimal intent="danger" className="cairn-inline-tag">
                        {x}
                      </Tag>
                    ))}
                  </td>
                  <td>{r.explanation}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        )}
      />
    </>
  );
}

export function LicenseTab() {
  const { state, setUrl } = useTaskView();
  return (
    <div className="cairn-license-tab">
      <SegmentedControl
        className="cairn-sub-tabs"
        aria-label={zh.task.license.licenses}
        value={state.sub}
        onValueChange={(v) => setUrl({ sub: v === 'license' ? undefined : v })}
        options={[
          { value: 'license', label: t.licenses },
          { value: 'copyright', label: t.copyrights },
          { value: 'conflict', label: t.conflicts },
        ]}
      />
      <div className="cairn-sub-panel">{state.sub === 'copyright' ? <Copyrights /> : state.sub === 'conflict' ? <Conflicts /> : <Licenses />}</div>
    </div>
  );
}
