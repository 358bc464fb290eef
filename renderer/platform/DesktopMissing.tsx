// Shown instead of the app when window.desktop is missing (page opened outside the desktop
// client and the web host).
import { Callout, Card, Elevation, H3 } from '@blueprintjs/core';
import { BrandMark } from '../common/AuthLayout.tsx';
import { zh } from '../i18n/zh-CN.ts';

export function DesktopMissing() {
  return (
    <div className="cairn-fullscreen">
      <Card elevation={Elevation.TWO} className="cairn-missing-card">
        <div className="cairn-missing-brand">
          <BrandMark size={32} />
          <span className="cairn-brand-name">{zh.app.name}</span>
        </div>
        <H3>{zh.app.desktopMissingTitle}</H3>
        <Callout intent="danger" icon="offline">
          {zh.app.desktopMissingBody}
        </Callout>
        <p className="cairn-muted cairn-missing-hint">{zh.app.desktopMissingHint}</p>
      </Card>
    </div>
  );
}
