// A success toast with one action button (前往报告管理, 打开报告库). The app's toaster
// (app/toaster.ts) takes plain messages only; this one sits at the same place with the same
// class, is created on first use, and replaces an identical message instead of stacking it.
import { OverlayToaster, Position, type Intent, type Toaster } from '@blueprintjs/core';

let toaster: Promise<Toaster> | null = null;
const AFTER_DIALOG_MS = 150;

function instance(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: Position.TOP, maxToasts: 3, className: 'cairn-toaster' });
  return toaster;
}

/**
 * Shown a moment later: a dialog that closes in the same click moves focus as it unmounts, and a
 * toast already open then can receive it, which pauses its timer for good (it never closes).
 */
export function toastWithAction(message: string, action: { text: string; onClick: () => void }, intent: Intent = 'success'): void {
  setTimeout(() => {
    void instance().then((t) =>
      t.show({ message, intent, icon: intent === 'success' ? 'tick-circle' : 'info-sign', timeout: 6000, action: { text: action.text, onClick: action.onClick } }, `action:${message}`),
    );
  }, AFTER_DIALOG_MS);
}
