// A row of minimal tags (aliases, CWE ids), or a muted dash when there are none.
import { Tag, type Intent } from '@blueprintjs/core';
import { DASH } from '../../contract/format.ts';

export function TagList({ items, intent }: { items: readonly string[]; intent?: Intent }) {
  if (items.length === 0) return <span className="cairn-muted">{DASH}</span>;
  return (
    <div className="cairn-tag-row">
      {items.map((a) => (
        <Tag key={a} minimal intent={intent}>
          {a}
        </Tag>
      ))}
    </div>
  );
}

/** A flaw's other ids: CVE, CNNVD and CNVD have their own fields, so they are left out. */
export function otherAliases(v: { aliases: readonly string[]; identify: string; cve: string | null; cnnvd: string | null; cnvd: string | null }): string[] {
  return v.aliases.filter((a) => a !== v.identify && a !== v.cve && a !== v.cnnvd && a !== v.cnvd);
}
