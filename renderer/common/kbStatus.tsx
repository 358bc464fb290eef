// The knowledge base's status and the words of an incomplete result, as every screen shows them:
// the home card (with the administrators' first-run callout when the knowledge base is empty), the
// 漏洞知识库 status panel (sources, advisories per ecosystem, the stale threshold), the callout of a
// run analysed with an incomplete knowledge base, and the 不完整 tag of lists.
import { useState } from 'react';
import { Button, Callout, Card, H5, HTMLTable, NumericInput, Tag, Tooltip } from '@blueprintjs/core';
import { useNavigate } from 'react-router';
import type { KbCoverage, KbStatus } from '../../contract/api/kb-status.ts';
import { KB_STALE_DAYS_MAX } from '../../contract/api/kb-status.ts';
import { COMPONENT_NOT_COVERED, COVERAGE_INCOMPLETE, COVERAGE_INCOMPLETE_MARK, isIncomplete } from '../../contract/coverage.ts';
import { formatDateTime } from '../../contract/format.ts';
import { useKbStatusQuery, useSetKbStaleDaysMutation } from '../api/kbStatusApi.ts';
import { usePermissions } from '../app/hooks.ts';
import { detailsUrl } from '../app/router/links.ts';
import { toastNotifier } from '../app/toaster.ts';
import { ErrorState, LoadingState } from './states.tsx';
import { zh } from '../i18n/zh-CN.ts';

const t = zh.kb;
/** The 漏洞知识库 screen, where imports are started. */
export const KB_SCREEN = '/system/knowledgeBase/vul';
const ADMIN = 'setup:knowledge:vul';

const ageText = (s: Pick<KbStatus, 'lastUpdate' | 'ageDays'>) =>
  (s.lastUpdate ? `${formatDateTime(s.lastUpdate)}（${t.daysAgo(s.ageDays ?? 0)}）` : t.never);

function stateTag(s: KbStatus) {
  if (s.empty) return <Tag intent="danger">{t.statusEmpty}</Tag>;
  if (s.stale) return <Tag intent="warning">{t.statusStale}</Tag>;
  return <Tag intent="success" minimal>{t.statusOk}</Tag>;
}

/** The callout of a run whose vulnerability results are incomplete; nothing when complete (or not recorded). */
export function CoverageCallout({ coverage, className }: { coverage: KbCoverage | null | undefined; className?: string }) {
  if (!isIncomplete(coverage)) return null;
  return (
    <Callout intent="warning" icon="warning-sign" title={COVERAGE_INCOMPLETE} className={className ?? 'cairn-coverage-callout'} data-testid="coverage-incomplete">
      <ul className="cairn-coverage-reasons">
        {coverage.reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
      <div className="cairn-muted">{t.reanalyseHint}</div>
    </Callout>
  );
}

/** 不完整, with the reasons on hover; nothing when complete. */
export function IncompleteTag({ coverage }: { coverage: KbCoverage | null | undefined }) {
  if (!isIncomplete(coverage)) return null;
  return (
    <Tooltip content={`${COVERAGE_INCOMPLETE}：${coverage.reasons.join('；')}`}>
      <Tag intent="warning" minimal icon="warning-sign" data-testid="coverage-incomplete-tag">
        {COVERAGE_INCOMPLETE_MARK}
      </Tag>
    </Tooltip>
  );
}

/** 未覆盖 in place of a risk tag: the knowledge base held nothing for the component's ecosystem. */
export function NotCoveredTag() {
  return (
    <Tooltip content={t.notCoveredHint}>
      <Tag className="cairn-level-tag cairn-not-covered-tag" minimal data-testid="not-covered">
        {COMPONENT_NOT_COVERED}
      </Tag>
    </Tooltip>
  );
}

/** Home: the knowledge base in figures, a warning in words when it is empty or stale, and what is incomplete. */
export function KbHomeCard({ incomplete }: { incomplete?: { projects: number; examples: Array<{ projectId: number; projectName: string; reasons: string[] }> } | undefined }) {
  const q = useKbStatusQuery();
  const navigate = useNavigate();
  const canAdmin = usePermissions()(ADMIN);
  if (q.isLoading) return <Card className="cairn-panel"><LoadingState /></Card>;
  if (q.isError || !q.data) return <Card className="cairn-panel"><ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} /></Card>;
  const s = q.data;
  const go = canAdmin ? <Button icon="database" text={s.empty ? t.openImport : t.open} intent={s.empty ? 'primary' : 'none'} onClick={() => navigate(KB_SCREEN)} /> : null;
  return (
    <Card className="cairn-panel cairn-kb-card" data-testid="kb-home-card">
      <div className="cairn-panel-header">
        <H5>
          {t.title} {stateTag(s)}
        </H5>
        {go}
      </div>
      {s.empty ? (
        <Callout intent="danger" icon="database" title={canAdmin ? t.firstRunTitle : t.emptyTitle} data-testid="kb-empty-callout">
          {canAdmin ? t.emptyBody : t.emptyBodyUser}
        </Callout>
      ) : s.stale ? (
        <Callout intent="warning" icon="time" title={t.staleTitle}>
          {s.message}
        </Callout>
      ) : null}
      <div className="cairn-kb-figures">
        <span>
          <span className="cairn-muted">{t.total}</span> <b data-testid="kb-total">{s.total.toLocaleString('zh-CN')}</b>
        </span>
        <span>
          <span className="cairn-muted">{t.ecosystems}</span> <b>{s.ecosystems.length}</b>
          {s.ecosystems.length ? <span className="cairn-muted">（{s.ecosystems.slice(0, 6).map((e) => `${e.ecosystem} ${e.advisories.toLocaleString('zh-CN')}`).join('、')}{s.ecosystems.length > 6 ? '…' : ''}）</span> : null}
        </span>
        <span>
          <span className="cairn-muted">{t.lastUpdate}</span> <b>{ageText(s)}</b>
        </span>
      </div>
      {incomplete && incomplete.projects > 0 ? (
        <Callout intent="warning" icon="warning-sign" title={t.incompleteProjects(incomplete.projects)} className="cairn-kb-incomplete" data-testid="home-incomplete">
          <ul className="cairn-coverage-reasons">
            {incomplete.examples.map((e) => (
              <li key={e.projectId}>
                <a onClick={() => navigate(detailsUrl(e.projectId))}>{e.projectName}</a>：{e.reasons.join('；')}
              </li>
            ))}
          </ul>
          <div className="cairn-muted">{t.incompleteHint}</div>
        </Callout>
      ) : null}
    </Card>
  );
}

function StaleDaysEditor({ status }: { status: KbStatus }) {
  const [days, setDays] = useState(status.staleDays);
  const [save, saving] = useSetKbStaleDaysMutation();
  const valid = Number.isInteger(days) && days >= 1 && days <= KB_STALE_DAYS_MAX;
  return (
    <div className="cairn-kb-stale-editor">
      <span className="cairn-muted">{t.staleDays}</span>
      <NumericInput value={days} min={1} max={KB_STALE_DAYS_MAX} majorStepSize={30} onValueChange={(n) => setDays(n)} style={{ width: 90 }} aria-label={t.staleDays} />
      <Button
        text={t.staleDaysSave}
        disabled={!valid || days === status.staleDays}
        loading={saving.isLoading}
        onClick={() => void save(days).unwrap().then(() => toastNotifier.success(t.staleDaysSaved), (e: { message?: string }) => toastNotifier.error(e.message ?? ''))}
      />
      <span className="cairn-muted">{t.staleDaysHint}</span>
    </div>
  );
}

/** 漏洞知识库: the status with its sources and advisories per ecosystem; administrators set the stale threshold. */
export function KbStatusPanel() {
  const q = useKbStatusQuery();
  const canAdmin = usePermissions()(ADMIN);
  if (q.isLoading) return <Card className="cairn-panel"><LoadingState /></Card>;
  if (q.isError || !q.data) return <Card className="cairn-panel"><ErrorState title={t.loadFailed} message={q.error?.message} onRetry={() => void q.refetch()} /></Card>;
  const s = q.data;
  return (
    <Card className="cairn-panel cairn-kb-panel" data-testid="kb-status-panel">
      <H5>
        {t.title} {stateTag(s)}
      </H5>
      <Callout intent={s.empty ? 'danger' : s.stale ? 'warning' : 'success'} icon={s.empty ? 'database' : s.stale ? 'time' : 'tick-circle'}>
        {s.empty ? (canAdmin ? t.emptyBody : t.emptyBodyUser) : s.message}
      </Callout>
      <div className="cairn-kb-figures">
        <span>
          <span className="cairn-muted">{t.total}</span> <b>{s.total.toLocaleString('zh-CN')}</b>
        </span>
        <span>
          <span className="cairn-muted">{t.lastUpdate}</span> <b>{ageText(s)}</b>
        </span>
        <span className="cairn-muted">
          {t.staleAfter(s.staleDays)}（{t.staleSource[s.staleDaysSource]}）
        </span>
      </div>
      <div className="cairn-kb-tables">
        <HTMLTable className="cairn-table" compact striped>
          <thead>
            <tr>
              <th>{t.source}</th>
              <th>{t.count}</th>
              <th>{t.lastImport}</th>
            </tr>
          </thead>
          <tbody>
            {s.sources.map((src) => (
              <tr key={src.kind}>
                <td>{src.label}</td>
                <td className="cairn-nowrap">
                  {src.count.toLocaleString('zh-CN')} {src.unit}
                </td>
                <td className="cairn-nowrap">{src.lastImportAt ? formatDateTime(src.lastImportAt) : '--'}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        <div className="cairn-kb-ecosystems">
          {s.ecosystems.length === 0 ? (
            <div className="cairn-muted cairn-panel-empty">{t.noEcosystems}</div>
          ) : (
            <HTMLTable className="cairn-table" compact striped>
              <thead>
                <tr>
                  <th>{t.ecosystem}</th>
                  <th>{t.advisories}</th>
                </tr>
              </thead>
              <tbody>
                {s.ecosystems.map((e) => (
                  <tr key={e.ecosystem}>
                    <td>{e.ecosystem}</td>
                    <td>{e.advisories.toLocaleString('zh-CN')}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          )}
        </div>
      </div>
      {canAdmin ? <StaleDaysEditor key={s.staleDays} status={s} /> : null}
    </Card>
  );
}
