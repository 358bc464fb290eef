// The one Blueprint OverlayToaster of the app (design §6). Messages with the same text replace
// each other instead of stacking, so a repeated failure never floods the screen.
import { OverlayToaster, Position, type Toaster, type Intent } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import type { Notifier } from './notifier.ts';

let toaster: Promise<Toaster> | null = null;

function instance(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 4, className: 'cairn-toaster' });
  return toaster;
}

function show(message: string, intent: Intent, icon: IconName, timeout: number): void {
  void instance().then((t) => t.show({ message, intent, icon, timeout }, `${intent}:${message}`));
}

export const toastNotifier: Notifier = {
  success: (message) => show(message, 'success', 'tick-circle', 3000),
  warning: (message) => show(message, 'warning', 'warning-sign', 5000),
  error: (message) => show(message, 'danger', 'error', 5000),
};

const AFTER_DIALOG_MS = 150;

/**
 * A toast with one action button (前往报告管理, 打开报告库). Shown a moment later: a dialog that
 * closes in the same click moves focus as it unmounts, and a toast already open then can receive
 * it, which pauses its timer for good (it never closes).
 */
export function toastWithAction(message: string, action: { text: string; onClick: () => void }, intent: Intent = 'success'): void {
  setTimeout(() => {
    void instance().then((t) =>
      t.show({ message, intent, icon: intent === 'success' ? 'tick-circle' : 'info-sign', timeout: 6000, action: { text: action.text, onClick: action.onClick } }, `action:${message}`),
    );
  }, AFTER_DIALOG_MS);
}
