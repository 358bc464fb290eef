// The title bar of a screen inside the shell: title, optional subtitle and actions on the right.
import type { ReactNode } from 'react';
import { H3 } from '@blueprintjs/core';

export function PageHeader({ title, subtitle, actions }: { title: string; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="cairn-page-header">
      <div className="cairn-page-header-text">
        <H3 className="cairn-page-title">{title}</H3>
        {subtitle ? <div className="cairn-page-subtitle">{subtitle}</div> : null}
      </div>
      {actions ? <div className="cairn-page-actions">{actions}</div> : null}
    </header>
  );
}

/** Standard screen body: header plus content with the app's spacing. */
export function Page({ title, subtitle, actions, children, narrow }: { title: string; subtitle?: ReactNode; actions?: ReactNode; children: ReactNode; narrow?: boolean }) {
  return (
    <div className={narrow ? 'cairn-page cairn-page-narrow' : 'cairn-page'}>
      <PageHeader title={title} subtitle={subtitle} actions={actions} />
      {children}
    </div>
  );
}
