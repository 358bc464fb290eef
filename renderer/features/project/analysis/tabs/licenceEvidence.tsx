// Confidence the user can read (issue 15, item 7): each place a licence was found says how it was
// found (识别方式), how sure the match is (可信度 0–100) and, expanded, the file's own lines that
// decided it (识别依据); a modified licence text (LicenseRef-Cairn-modified-<id>) is marked and names
// the standard licence it is nearest to. LicenseTab.tsx lays these out in its table.
import { FormGroup, Icon, Slider, Tag, Tooltip, type Intent } from '@blueprintjs/core';
import type { LicenseFileRef } from '../../../../../contract/api/result/index.ts';
import { LICENSE_KIND_LABEL, LICENSE_KINDS, type LicenseKind } from '../../../../../contract/enums.ts';
import { zh } from '../../../../i18n/zh-CN.ts';

const t = zh.task.license;

/** The kinds in the filter's order. */
export const KIND_CODES: readonly LicenseKind[] = LICENSE_KINDS;

/** The licence list query's `kinds` (comma-separated, filter order) and `minScore`; nothing when they filter nothing. */
export function confidenceQuery(kinds: readonly LicenseKind[], minScore: number): { kinds?: string; minScore?: number } {
  const chosen = KIND_CODES.filter((k) => kinds.includes(k));
  return {
    ...(chosen.length > 0 && chosen.length < KIND_CODES.length ? { kinds: chosen.join(',') } : {}),
    ...(minScore > 0 ? { minScore } : {}),
  };
}

/** The report generate call's `licenceKinds` and `minScore`: nothing when they filter nothing. */
export function reportConfidence(kinds: readonly LicenseKind[], minScore: number): { licenceKinds?: LicenseKind[]; minScore?: number } {
  const { kinds: csv, ...rest } = confidenceQuery(kinds, minScore);
  return { ...(csv ? { licenceKinds: csv.split(',') as LicenseKind[] } : {}), ...rest };
}

/**
 * 最低可信度: a 0–100 slider in steps of 5 with the value beside its label (不限 at 0). `onRelease`
 * applies it (the licence list asks again only then); without it every move applies.
 */
export function MinScoreSlider({ value, onChange, onRelease }: { value: number; onChange: (n: number) => void; onRelease?: (n: number) => void }) {
  return (
    <FormGroup
      inline
      label={
        <span className="cairn-min-score-label">
          <Tooltip content={t.minScoreHint} placement="bottom" className="cairn-min-score-hint">
            <span>
              {t.minScore} <Icon icon="info-sign" size={12} />
            </span>
          </Tooltip>
          <span className="cairn-min-score-value">{t.minScoreValue(value)}</span>
        </span>
      }
      className="cairn-filter-group cairn-min-score"
    >
      <Slider min={0} max={100} stepSize={5} labelStepSize={25} value={value} onChange={onChange} onRelease={onRelease} handleHtmlProps={{ 'aria-label': t.minScore }} />
    </FormGroup>
  );
}

/** 识别方式为全文、声明头 — the kinds named as the filtered note and the reports say them. */
export const kindsInWords = (kinds: readonly LicenseKind[]) => KIND_CODES.filter((k) => kinds.includes(k)).map((k) => LICENSE_KIND_LABEL[k]).join('、');

/** Sure (≥ 90) green, likely (≥ 70) plain, doubtful (below) amber. */
export const scoreIntent = (score: number): Intent => (score >= 90 ? 'success' : score >= 70 ? 'none' : 'warning');

/** Whether a licence id is a modified standard text. */
export const isModified = (spdxId: string) => spdxId.startsWith('LicenseRef-Cairn-modified-');

/**
 * The line numbers to print beside the evidence, only where they are certain: every line's when
 * the lines are the whole range (a tag or reference line, a short header); else the first line's
 * (a match starts on a line of its text), the others unnumbered since blank lines were left out —
 * the caption says which lines of the range they are. None for a modified text's differing lines.
 */
export function evidenceNumbers(place: Pick<LicenseFileRef, 'startLine' | 'endLine' | 'evidence' | 'nearest'>): Array<number | null> {
  const { startLine, endLine, evidence, nearest } = place;
  if (startLine === null || nearest) return evidence.map(() => null);
  const exact = endLine !== null && endLine - startLine + 1 === evidence.length;
  return evidence.map((_, i) => (exact || i === 0 ? startLine + i : null));
}

/** The caption over a place's evidence: which lines of the file they are. */
export function evidenceCaption(place: Pick<LicenseFileRef, 'startLine' | 'endLine' | 'evidence' | 'nearest'>): string {
  if (place.nearest) return t.evidenceModified(place.startLine, place.endLine);
  const exact = place.startLine !== null && place.endLine !== null && place.endLine - place.startLine + 1 === place.evidence.length;
  return t.evidenceLines(place.startLine, place.endLine ?? place.startLine, place.evidence.length, exact);
}

/** How a place was found and how sure: two small tags. */
export function KindScore({ place }: { place: Pick<LicenseFileRef, 'source' | 'score'> }) {
  return (
    <>
      <Tag minimal className="cairn-inline-tag cairn-kind-tag">
        {LICENSE_KIND_LABEL[place.source] ?? place.source}
      </Tag>
      <Tag minimal intent={scoreIntent(place.score)} className="cairn-inline-tag cairn-score-tag">
        {t.score(place.score)}
      </Tag>
    </>
  );
}

/** A modified licence text: the mark and the nearest standard licence. */
export function ModifiedMark({ nearest }: { nearest: string | null }) {
  return (
    <div className="cairn-modified-mark">
      <Tag intent="warning" icon="edit" minimal className="cairn-inline-tag" title={nearest ? t.modifiedHint(nearest) : undefined}>
        {t.modified}
      </Tag>
      {nearest ? <span className="cairn-muted cairn-cell-sub"> {t.nearest(nearest)}</span> : null}
    </div>
  );
}

/** One place's evidence: where, how, how sure, then the lines in monospace with their numbers. */
export function EvidenceBlock({ place }: { place: LicenseFileRef }) {
  const numbers = evidenceNumbers(place);
  return (
    <figure className="cairn-evidence">
      <figcaption>
        <span className="cairn-mono cairn-break">
          {place.file}
          {place.startLine ? `:${place.startLine}` : ''}
        </span>
        <KindScore place={place} />
        {place.nearest ? <span className="cairn-muted"> {t.nearest(place.nearest)}</span> : null}
        {place.evidence.length ? <span className="cairn-muted cairn-evidence-range">{evidenceCaption(place)}</span> : null}
      </figcaption>
      {place.evidence.length ? (
        <ol className="cairn-evidence-lines" aria-label={`${t.evidence} ${place.file}`}>
          {place.evidence.map((line, i) => (
            <li key={i}>
              <span className="cairn-evidence-no" aria-hidden={numbers[i] === null}>
                {numbers[i] ?? ''}
              </span>
              <code>{line}</code>
            </li>
          ))}
        </ol>
      ) : (
        <p className="cairn-muted cairn-evidence-none">{t.evidenceNone}</p>
      )}
    </figure>
  );
}
