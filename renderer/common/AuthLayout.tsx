// The frame of the screens shown without a session (login, token login, logout, forced
// password change): brand on the left, a card on the right.
import type { ReactNode } from 'react';
import { Card, Elevation, Icon } from '@blueprintjs/core';
import { zh } from '../i18n/zh-CN.ts';
import type { IconName } from '@blueprintjs/icons';

const HIGHLIGHT_ICONS: readonly IconName[] = ['cube', 'shield', 'git-branch'];

export function BrandMark({ size = 28 }: { size?: number }) {
  return (
    <span className="cairn-brand-mark" style={{ width: size, height: size }}>
      <Icon icon="layers" size={Math.round(size * 0.6)} />
    </span>
  );
}

export function AuthLayout({ children, footer, wide }: { children: ReactNode; footer?: ReactNode; wide?: boolean }) {
  return (
    <div className="cairn-auth">
      <aside className="cairn-auth-brand">
        <div className="cairn-auth-brand-inner">
          <div className="cairn-auth-logo">
            <BrandMark size={40} />
            <span className="cairn-auth-name">{zh.app.name}</span>
          </div>
          <div className="cairn-auth-tagline">{zh.app.subtitle}</div>
          <ul className="cairn-auth-points">
            {zh.app.highlights.map((text, i) => (
              <li key={text}>
                <Icon icon={HIGHLIGHT_ICONS[i] ?? 'dot'} /> {text}
              </li>
            ))}
          </ul>
        </div>
      </aside>
      <main className="cairn-auth-main">
        <Card elevation={Elevation.TWO} className={wide ? 'cairn-auth-card cairn-auth-card-wide' : 'cairn-auth-card'}>
          {children}
        </Card>
        {footer ? <div className="cairn-auth-footer">{footer}</div> : null}
      </main>
    </div>
  );
}
