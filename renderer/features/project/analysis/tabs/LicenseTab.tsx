// 许可证: three sub-tabs (sub=license|copyright|conflict in the URL) — the licences recognised in
// the run with their level, copyleft, how they were found, components and files, the project's own
// apart from those found in test fixtures, licence databases and data files (view=excluded: listed
// with where they were found, counted nowhere); the copyright holders with their statements and
// files; the licence conflicts against the project's outbound licence (and where it came from) with
// a verdict, a one-sentence explanation and who decided it (OSADL's matrix or Cairn's rules) — or,
// without an outbound licence, how to set one.
import { Fragment, useState, type ReactNode } from 'react';
import { Button, Callout, Card, HTMLTable, SegmentedControl, Tag, type Intent } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { ConflictRow, CopyrightRow, LicenseUsageRow } from '../../../../../contract/api/result/index.ts';
import { useCopyrightListQuery, useLicenseConflictQuery, useResultLicenseListQuery } from '../../../../api/resultApi.ts';
import { CheckTagGroup, KeywordSearch, ResetButton } from '../../../../common/list/filters.tsx';
import type { PagedListQuery } from '../../../../common/list/PagedListBody.tsx';
import { EmptyState, ErrorState, LoadingState } from '../../../../common/states.tsx';
import { Pager } from '../../../../common/list/Pager.tsx';
import { LevelTag } from '../../../../common/levels.tsx';
import { useTaskView } from '../context.ts';
import { NameAtVersion } from '../../../../common/cells.tsx';
import { zh } from '../../../../i18n/zh-CN.ts';
import { CONFLICT_VERDICT_LABEL, LICENSE_KIND_LABEL, VERDICT_SOURCE_LABEL, type ConflictVerdict, type LicenseKind } from '../../../../../contract/enums.ts';
import { confidenceQuery, EvidenceBlock, isModified, KIND_CODES, KindScore, kindsInWords, MinScoreSlider, ModifiedMark } from './licenceEvidence.tsx';

const t = zh.task.license;
const c = t.columns;

const SIZE = 15;

/** The keyword box's text, the applied keyword and the page; a search goes back to page 1. */
function useKeywordPaging() {
  const [keyword, setKeyword] = useState('');
  const [applied, setApplied] = useState('');
  const [page, setPage] = useState(1);
  const search = (k: string) => {
    setApplied(k);
    setPage(1);
  };
  return { keyword, setKeyword, applied, page, setPage, search, keywordQuery: applied ? { keyword: applied } : {} };
}

/** A sub-tab's table with its pager: loading, error, the two empty cases, else one row per item. */
function PagedTable<T>(props: { q: PagedListQuery<T>; empty: string; filtered: boolean; page: number; setPage: (n: number) => void; className?: string; columns: string[]; row: (r: T) => ReactNode }) {
  const { q, empty, filtered, page, setPage, className = 'cairn-table', columns, row } = props;
  if (q.isLoading) return <LoadingState />;
  if (q.isError) return <ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} />;
  if (!q.data || q.data.content.length === 0) return filtered ? <EmptyState title={t.emptyFiltered} description={t.emptyFilteredBody} icon="search" /> : <EmptyState title={empty} icon="document" />;
  return (
    <Card className={q.isFetching ? 'cairn-table-card cairn-refreshing' : 'cairn-table-card'}>
      <HTMLTable className={className} striped compact>
        <thead>
          <tr>
            {columns.map((title) => (
              <th key={title}>{title}</th>
            ))}
          </tr>
        </thead>
        <tbody>{q.data.content.map(row)}</tbody>
      </HTMLTable>
      <Pager page={page} size={SIZE} total={q.data.total} onPage={setPage} />
    </Card>
  );
}

const more = (shown: number, total: number) => (total > shown ? <span className="cairn-muted"> {t.more(total)}</span> : null);

function Licenses() {
  const { projectId, run } = useTaskView();
  const k = useKeywordPaging();
  const [view, setView] = useState<'project' | 'excluded'>('project');
  const [kinds, setKinds] = useState<LicenseKind[]>([]);
  // The slider moves `dragging`; the list asks again once it is let go.
  const [minScore, setMinScore] = useState(0);
  const [dragging, setDragging] = useState<number | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const confidence = confidenceQuery(kinds, minScore);
  const q = useResultLicenseListQuery({ projectId, query: { page: k.page, size: SIZE, taskId: run.id, ...k.keywordQuery, ...(view === 'excluded' ? { view } : {}), ...confidence } });
  const views = q.data?.views;
  const excluded = view === 'excluded';
  const filtering = Boolean(confidence.kinds || confidence.minScore);
  const columns = excluded ? [c.spdx, c.level, c.scope, c.sources, c.places] : [c.spdx, c.level, c.copyleft, c.sources, c.components, c.places];
  const toggleOpen = (id: string) => setOpen((was) => {
    const next = new Set(was);
    if (!next.delete(id)) next.add(id);
    return next;
  });
  const reset = () => {
    setKinds([]);
    setMinScore(0);
    k.setPage(1);
  };
  return (
    <>
      <div className="cairn-filter-row">
        <SegmentedControl
          aria-label={t.licenses}
          value={view}
          onValueChange={(v) => { setView(v as typeof view); k.setPage(1); }}
          options={(['project', 'excluded'] as const).map((v) => ({ value: v, label: `${t.views[v]}${views ? ` ${views[v]}` : ''}` }))}
        />
        <KeywordSearch label={t.keyword} placeholder={t.keywordLicense} value={k.keyword} onValueChange={k.setKeyword} onSearch={k.search} />
      </div>
      <div className="cairn-filter-row cairn-confidence-filters">
        <CheckTagGroup
          label={t.kinds}
          codes={KIND_CODES}
          selected={kinds}
          labelOf={(x) => LICENSE_KIND_LABEL[x]}
          onToggle={(x) => { setKinds((was) => (was.includes(x) ? was.filter((y) => y !== x) : [...was, x])); k.setPage(1); }}
        />
        <MinScoreSlider value={dragging ?? minScore} onChange={setDragging} onRelease={(v) => { setDragging(null); setMinScore(v); k.setPage(1); }} />
        <ResetButton disabled={!filtering} onReset={reset} />
      </div>
      {excluded ? (
        <Callout intent="none" icon="filter-remove" className="cairn-license-excluded-note">
          {t.excludedNote}
        </Callout>
      ) : null}
      {filtering ? <p className="cairn-muted cairn-confidence-note">{t.filteredNote(kindsInWords(kinds), minScore)}</p> : null}
      <PagedTable<LicenseUsageRow>
        q={q}
        empty={excluded ? t.emptyExcluded : t.empty}
        filtered={Boolean(k.applied) || filtering}
        page={k.page}
        setPage={k.setPage}
        className="cairn-table cairn-result-license-table"
        columns={columns}
        row={(r) => {
          const expanded = open.has(r.spdxId);
          return (
            <Fragment key={r.spdxId}>
              <tr className={expanded ? 'cairn-row-expanded' : undefined}>
                <td>
                  {r.licenseId ? <a href={`#/license/details?id=${r.licenseId}`}>{r.spdxId}</a> : <b className="cairn-break">{r.spdxId}</b>}
                  {r.name !== r.spdxId ? <div className="cairn-muted cairn-cell-sub">{r.name}</div> : null}
                  {isModified(r.spdxId) ? <ModifiedMark nearest={r.nearest} /> : null}
                </td>
                <td>
                  <LevelTag level={r.level} />
                </td>
                {excluded ? (
                  <td>
                    {r.scopes.map((x) => (
                      <Tag key={x} minimal className="cairn-inline-tag">
                        {t.scopes[x] ?? x}
                      </Tag>
                    ))}
                  </td>
                ) : (
                  <td>{r.copyleft ? t.copyleft[r.copyleft] ?? r.copyleft : '--'}</td>
                )}
                <td>
                  {r.sources.map((x) => LICENSE_KIND_LABEL[x] ?? x).join('、')}
                  <div className="cairn-muted cairn-cell-sub">{t.maxScore(r.maxScore)}</div>
                </td>
                {excluded ? null : (
                  <td>
                    {r.components.map((x) => `${x.name}${x.version ? `@${x.version}` : ''}`).join(', ')}
                    {more(r.components.length, r.componentCount)}
                  </td>
                )}
                <td className="cairn-license-places">
                  {r.files.map((f, i) => (
                    <div key={`${f.file}:${i}`} className="cairn-license-place">
                      <span className="cairn-mono cairn-break">
                        {f.file}
                        {f.startLine ? `:${f.startLine}` : ''}
                      </span>{' '}
                      <KindScore place={f} />
                    </div>
                  ))}
                  {more(r.files.length, r.fileCount)}
                  {r.files.length ? (
                    <Button
                      small
                      minimal
                      intent="primary"
                      icon={expanded ? 'chevron-up' : 'chevron-down'}
                      text={expanded ? t.evidenceHide : t.evidenceShow}
                      aria-expanded={expanded}
                      onClick={() => toggleOpen(r.spdxId)}
                    />
                  ) : null}
                </td>
              </tr>
              {expanded ? (
                <tr className="cairn-evidence-row">
                  <td colSpan={columns.length}>
                    <div className="cairn-evidence-list" aria-label={`${r.spdxId} ${t.evidence}`}>
                      {r.files.map((f, i) => (
                        <EvidenceBlock key={`${f.file}:${i}`} place={f} />
                      ))}
                    </div>
                  </td>
                </tr>
              ) : null}
            </Fragment>
          );
        }}
      />
    </>
  );
}

function Copyrights() {
  const { projectId, run } = useTaskView();
  const k = useKeywordPaging();
  const q = useCopyrightListQuery({ projectId, query: { page: k.page, size: SIZE, taskId: run.id, ...k.keywordQuery } });
  return (
    <>
      <KeywordSearch label={t.keyword} placeholder={t.keywordCopyright} value={k.keyword} onValueChange={k.setKeyword} onSearch={k.search} />
      <PagedTable<CopyrightRow>
        q={q}
        empty={t.emptyCopyright}
        filtered={Boolean(k.applied)}
        page={k.page}
        setPage={k.setPage}
        columns={[c.holder, c.statements, c.authors, c.files]}
        row={(r) => (
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
        )}
      />
    </>
  );
}

/** 不兼容 red, 需核查依赖方式 amber (a reviewer can settle it), 兼容 green, 未知 grey. */
const VERDICT_INTENT: Record<ConflictVerdict, Intent> = { compatible: 'success', incompatible: 'danger', check: 'warning', unknown: 'none' };

/** Where the project's outbound licence is set: the project's settings, its field focused. */
const settingsUrl = (projectId: number) => `/project/analysis/launch?projectId=${projectId}&focus=outboundLicense`;

/** Without an outbound licence: why no verdict can be given, and how to set one. */
function NoOutbound({ projectId, components }: { projectId: number; components: number }) {
  const navigate = useNavigate();
  return (
    <Callout intent="warning" icon="warning-sign" title={t.outboundNoneTitle} className="cairn-outbound cairn-outbound-none">
      <p>{t.outboundNoneBody(components)}</p>
      <ol className="cairn-outbound-steps">
        {t.outboundNoneSteps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      <p className="cairn-muted">{t.outboundNoneRead}</p>
      <Button intent="primary" icon="cog" text={t.outboundNoneAction} onClick={() => navigate(settingsUrl(projectId))} />
    </Callout>
  );
}

function Conflicts() {
  const { projectId, run } = useTaskView();
  const navigate = useNavigate();
  const k = useKeywordPaging();
  const [verdict, setVerdict] = useState<'' | ConflictVerdict>('');
  const q = useLicenseConflictQuery({ projectId, query: { page: k.page, size: SIZE, taskId: run.id, ...k.keywordQuery, ...(verdict ? { verdict } : {}) } });
  const d = q.data;
  // No outbound licence anywhere: nothing to list (every verdict would be 未知), say how to set one.
  if (d && !d.outboundLicense) return <NoOutbound projectId={projectId} components={d.componentCount} />;
  return (
    <>
      {d?.outboundLicense ? (
        <Callout intent="primary" icon="info-sign" className="cairn-outbound">
          {t.outbound}：<b className="cairn-mono">{d.outboundLicense}</b>
          {d.outboundSource ? <span className="cairn-muted">（{t.outboundFrom[d.outboundSource]?.(d.outboundFile ?? '')}）</span> : null}
          <Button minimal small icon="edit" className="cairn-outbound-edit" text={t.outboundChange} onClick={() => navigate(settingsUrl(projectId))} />
          <div className="cairn-muted">{t.sourceNote(d.osadlVersion)}</div>
        </Callout>
      ) : null}
      <div className="cairn-filter-row">
        <SegmentedControl
          aria-label={c.verdict}
          value={verdict || 'all'}
          onValueChange={(v) => { setVerdict(v === 'all' ? '' : (v as typeof verdict)); k.setPage(1); }}
          options={[
            { value: 'all', label: zh.task.bug.all },
            ...(['incompatible', 'check', 'unknown', 'compatible'] as const).map((k) => ({ value: k, label: `${CONFLICT_VERDICT_LABEL[k]} ${d ? d.totals[k] : ''}` })),
          ]}
        />
        <KeywordSearch label={t.keyword} placeholder={t.keywordConflict} value={k.keyword} onValueChange={k.setKeyword} onSearch={k.search} />
      </div>
      <PagedTable<ConflictRow>
        q={q}
        empty={t.emptyConflict}
        filtered={Boolean(k.applied || verdict)}
        page={k.page}
        setPage={k.setPage}
        columns={[c.component, c.expression, c.verdict, c.explanation]}
        row={(r) => (
          <tr key={r.componentId}>
            <td className="cairn-nowrap">
              <NameAtVersion name={r.name} version={r.version} />
            </td>
            <td className="cairn-mono">
              {r.licenseExpression ?? '--'}
              {r.chosen ? <div className="cairn-muted cairn-cell-sub">{t.chosen(r.chosen)}</div> : null}
            </td>
            <td>
              <Tag intent={VERDICT_INTENT[r.verdict] ?? 'none'} minimal={r.verdict !== 'incompatible'} className="cairn-verdict-tag">
                {CONFLICT_VERDICT_LABEL[r.verdict] ?? r.verdict}
              </Tag>
              {r.conflicting.map((x) => (
                <Tag key={x} minimal intent="danger" className="cairn-inline-tag">
                  {x}
                </Tag>
              ))}
            </td>
            <td>
              {r.explanation}
              <div className="cairn-muted cairn-cell-sub">{t.source(VERDICT_SOURCE_LABEL[r.source])}</div>
            </td>
          </tr>
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
