// Loading, empty and error states shared by every screen, and the failure callout of a form or an action.
import { Button, Callout, NonIdealState, Spinner, SpinnerSize } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { zh } from '../i18n/zh-CN.ts';

export function LoadingState({ label = zh.states.loading }: { label?: string }) {
  return (
    <div className="cairn-state">
      <NonIdealState icon={<Spinner size={SpinnerSize.STANDARD} />} description={label} />
    </div>
  );
}

export function EmptyState({ title = zh.states.empty, description, icon = 'inbox', action }: { title?: string; description?: string; icon?: IconName; action?: React.JSX.Element }) {
  return (
    <div className="cairn-state">
      <NonIdealState icon={icon} iconSize={48} title={title} description={description} action={action} />
    </div>
  );
}

export function ErrorState({ title = zh.states.error, message, onRetry }: { title?: string; message?: string; onRetry?: () => void }) {
  return (
    <div className="cairn-state">
      <NonIdealState
        icon="error"
        iconSize={48}
        title={title}
        description={message}
        action={onRetry ? <Button icon="refresh" text={zh.states.retry} onClick={onRetry} /> : undefined}
      />
    </div>
  );
}

/** A whole-window centred spinner (start-up, lazy screens). */
export function FullScreenLoading({ label = zh.app.loading }: { label?: string }) {
  return (
    <div className="cairn-fullscreen">
      <Spinner size={SpinnerSize.LARGE} />
      <div className="cairn-muted">{label}</div>
    </div>
  );
}

/** A failure said in place (a refused save, a failed action): nothing when there is none. */
export function ErrorCallout({ message, className }: { message: string | null | undefined; className: string }) {
  if (!message) return null;
  return (
    <Callout intent="danger" icon="error" className={className} role="alert">
      {message}
    </Callout>
  );
}
