// Level colours and the small display pieces every screen with vulnerability or licence levels
// shares: the level tag, the score, the exploit difficulty.
import { Tag } from '@blueprintjs/core';
import { EXPLOIT_DIFFICULTY_LABEL, UNRATED_FINDING, VULNERABILITY_LEVEL_LABEL, labelOf, type VulnerabilityLevel } from '../../contract/enums.ts';
import { DASH } from '../../contract/format.ts';
import './list/styles.ts';

/** One colour per level, most to least severe (Blueprint palette: red1, red3, orange3, gold3, gray3). */
export const LEVEL_COLORS: Readonly<Record<VulnerabilityLevel, string>> = {
  1: '#8E292C',
  2: '#CD4246',
  4: '#EC9A3C',
  8: '#D1980B',
  16: '#8F99A8',
};

export const levelLabel = (level: number | null | undefined): string => labelOf(VULNERABILITY_LEVEL_LABEL, level);
export const exploitLabel = (code: number | null | undefined): string => labelOf(EXPLOIT_DIFFICULTY_LABEL, code);

export const levelColor = (level: number | null | undefined): string =>
  (LEVEL_COLORS as Record<number, string>)[level ?? 16] ?? LEVEL_COLORS[16];

export function LevelTag({ level, large }: { level: number | null | undefined; large?: boolean }) {
  return (
    <Tag className="cairn-level-tag" size={large ? 'large' : undefined} style={{ backgroundColor: levelColor(level), color: '#fff' }}>
      {levelLabel(level)}
    </Tag>
  );
}

/** Before the source of a level was recorded (runs analysed before it): analysing again shows it. */
const SOURCE_NOT_RECORDED = '未记录（重新分析后显示）';

/**
 * Which knowledge-base source set a finding's level (`CVSS:3.1 NVD 9.8`, `GHSA 数据库评级 HIGH`), or
 * 未评级 with the reason for a finding no source rates. `level` is the advisory's (original) level.
 */
export function SeveritySource({ source, level }: { source: string; level: number }) {
  if (source) return <span className="cairn-severity-source" data-testid="severity-source">{source}</span>;
  if (level === 16) {
    return (
      <span data-testid="severity-source">
        <Tag minimal className="cairn-inline-tag">{UNRATED_FINDING.label}</Tag>
        <span className="cairn-muted">{UNRATED_FINDING.reason}</span>
      </span>
    );
  }
  return <span className="cairn-muted" data-testid="severity-source">{SOURCE_NOT_RECORDED}</span>;
}

/** A finding's level tag; level 16 without any source reads 未评级 (the reason goes beside it). */
export function FindingLevelTag({ level, source }: { level: number; source: string }) {
  if (level === 16 && !source) {
    return <Tag className="cairn-level-tag" title={UNRATED_FINDING.reason} style={{ backgroundColor: LEVEL_COLORS[16], color: '#fff' }}>{UNRATED_FINDING.label}</Tag>;
  }
  return <LevelTag level={level} />;
}

/** The CVSS base score with one decimal, or '--'. */
export const formatScore = (score: number | null | undefined): string =>
  typeof score === 'number' && Number.isFinite(score) ? score.toFixed(1) : DASH;

/** Exploit difficulty as text, coloured by how easy it is. */
export function ExploitText({ code }: { code: number | null | undefined }) {
  const cls = code === 1 ? 'cairn-exploit-easy' : code === 2 ? 'cairn-exploit-normal' : 'cairn-muted';
  return <span className={cls}>{exploitLabel(code)}</span>;
}

