// Table cells the result lists of several screens show (analysis details, the home dashboard): a
// finding's id with its summary, name@version.
import { formatVulnerabilityId, type VulnerabilityIdentifier } from '../../contract/format.ts';

/** A finding's id in the spec's display form, its summary under it (the id cell of finding lists). */
export function FindingIdSummary({ row }: { row: VulnerabilityIdentifier & { summary: string } }) {
  return (
    <>
      <a className="cairn-vul-id">{formatVulnerabilityId(row)}</a>
      <div className="cairn-muted cairn-ellipsis-2 cairn-cell-sub" title={row.summary}>
        {row.summary}
      </div>
    </>
  );
}

/** name@version with the version muted (nothing after the name without a version). */
export function NameAtVersion({ name, version }: { name: string; version: string | null | undefined }) {
  return (
    <>
      {name}
      <span className="cairn-muted">{version ? `@${version}` : ''}</span>
    </>
  );
}
