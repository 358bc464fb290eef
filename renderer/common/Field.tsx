// A labelled value in a detail page's field grid; shared by the vulnerability and licence details.
import type { ReactNode } from 'react';

export function Field({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={wide ? 'cairn-field cairn-field-wide' : 'cairn-field'}>
      <div className="cairn-field-label cairn-muted">{label}</div>
      <div className="cairn-field-value">{children}</div>
    </div>
  );
}
