// Light and dark themes follow the system setting (prefers-color-scheme), live.
import { Classes } from '@blueprintjs/core';

const QUERY = '(prefers-color-scheme: dark)';

export const systemPrefersDark = (): boolean => typeof window !== 'undefined' && !!window.matchMedia?.(QUERY).matches;

/** Calls `onChange` whenever the system theme changes; returns the unsubscribe function. */
export function watchSystemTheme(onChange: (dark: boolean) => void): () => void {
  const mq = window.matchMedia?.(QUERY);
  if (!mq) return () => {};
  const listener = (e: MediaQueryListEvent) => onChange(e.matches);
  mq.addEventListener('change', listener);
  return () => mq.removeEventListener('change', listener);
}

/** Blueprint's dark class on <body> (portals such as popovers and toasts render there). */
export function applyTheme(dark: boolean): void {
  document.body.classList.toggle(Classes.DARK, dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
}
