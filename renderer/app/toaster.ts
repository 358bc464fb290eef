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
