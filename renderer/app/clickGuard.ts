// Spec doc 1 §5: a button is disabled for 2000 ms after a click. The timing core is plain code
// (tested with fake timers); useClickGuard wraps it for components, GuardedButton uses it.
import { useCallback, useEffect, useRef, useState } from 'react';
import { CLICK_GUARD_MS } from '../../contract/navigation.ts';

export interface ClickGuard {
  /** Runs `fn` unless a click was accepted less than `ms` ago; true when it ran. */
  trigger(fn: () => void): boolean;
  /** Whether clicks are currently refused. */
  readonly blocked: boolean;
  /** Forget the pending block (component unmount). */
  dispose(): void;
}

/** A guard that accepts one click, then refuses clicks for `ms` and calls onChange on both edges. */
export function createClickGuard(ms: number = CLICK_GUARD_MS, onChange: (blocked: boolean) => void = () => {}): ClickGuard {
  let timer: ReturnType<typeof setTimeout> | null = null;
  return {
    trigger(fn) {
      if (timer !== null) return false;
      timer = setTimeout(() => {
        timer = null;
        onChange(false);
      }, ms);
      onChange(true);
      fn();
      return true;
    },
    get blocked() {
      return timer !== null;
    },
    dispose() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

/**
 * `const [guard, blocked] = useClickGuard()`: `guard(fn)` runs fn at most once per 2000 ms;
 * `blocked` is true meanwhile (bind it to the button's disabled state).
 */
export function useClickGuard(ms: number = CLICK_GUARD_MS): [(fn: () => void) => boolean, boolean] {
  const [blocked, setBlocked] = useState(false);
  const ref = useRef<ClickGuard | null>(null);
  ref.current ??= createClickGuard(ms, setBlocked);
  useEffect(() => () => ref.current?.dispose(), []);
  const guard = useCallback((fn: () => void) => ref.current!.trigger(fn), []);
  return [guard, blocked];
}
