// Spec doc 1 §5/§9: a button is disabled for 2000 ms after a click.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClickGuard } from '../../../../renderer/app/clickGuard.ts';
import { CLICK_GUARD_MS } from '../../../../contract/navigation.ts';

describe('createClickGuard', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('defaults to the spec 2000 ms', () => {
    expect(CLICK_GUARD_MS).toBe(2000);
  });

  it('runs the first click, refuses clicks for 2000 ms, then accepts again', () => {
    const edges: boolean[] = [];
    const guard = createClickGuard(undefined, (b) => edges.push(b));
    const fn = vi.fn();
    expect(guard.trigger(fn)).toBe(true);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(guard.blocked).toBe(true);

    vi.advanceTimersByTime(1999);
    expect(guard.trigger(fn)).toBe(false);
    expect(fn).toHaveBeenCalledTimes(1);
    expect(guard.blocked).toBe(true);

    vi.advanceTimersByTime(1);
    expect(guard.blocked).toBe(false);
    expect(guard.trigger(fn)).toBe(true);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(edges).toEqual([true, false, true]);
  });

  it('a refused click does not extend the block', () => {
    const guard = createClickGuard(2000);
    guard.trigger(() => {});
    vi.advanceTimersByTime(1500);
    guard.trigger(() => {});
    vi.advanceTimersByTime(500);
    expect(guard.blocked).toBe(false);
  });

  it('dispose cancels the pending timer', () => {
    const onChange = vi.fn();
    const guard = createClickGuard(2000, onChange);
    guard.trigger(() => {});
    guard.dispose();
    vi.advanceTimersByTime(5000);
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(guard.blocked).toBe(false);
  });
});
