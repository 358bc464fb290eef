// The login throttle's counting: fixed windows per key, refused attempts only, a limit of 0 off,
// Retry-After until the window ends, and a bounded number of keys.
import { describe, expect, it } from 'vitest';
import { FixedWindowCounter, LoginThrottle } from '../../../../server/auth/rate-limit.ts';

describe('FixedWindowCounter', () => {
  it('blocks a key that used up its window until the window ends', () => {
    const counter = new FixedWindowCounter(2, 1000);
    counter.count('a', 0);
    expect(counter.blockedFor('a', 100)).toBe(0);
    counter.count('a', 500);
    expect(counter.blockedFor('a', 600)).toBe(400);
    expect(counter.blockedFor('b', 600)).toBe(0);
    expect(counter.blockedFor('a', 1000)).toBe(0);
    // A new window starts at the next event.
    counter.count('a', 1500);
    expect(counter.blockedFor('a', 1600)).toBe(0);
  });

  it('forgives a window that began at or before a time, not one begun after it', () => {
    const counter = new FixedWindowCounter(1, 1000);
    counter.count('a', 100);
    counter.count('b', 300);
    expect(counter.forgive('a', 200)).toBe(true);
    expect(counter.blockedFor('a', 400)).toBe(0);
    expect(counter.forgive('b', 200)).toBe(false);
    expect(counter.blockedFor('b', 400)).toBe(900);
    expect(counter.forgive('never', 200)).toBe(false);
  });

  it('a limit of 0 never blocks and keeps nothing', () => {
    const counter = new FixedWindowCounter(0, 1000);
    for (let i = 0; i < 100; i++) counter.count('a', i);
    expect(counter.blockedFor('a', 100)).toBe(0);
    expect(counter.size).toBe(0);
  });

  it('keeps at most maxKeys keys: ended windows go first, then the oldest', () => {
    const counter = new FixedWindowCounter(1, 1000, 3);
    counter.count('old', 0);
    counter.count('b', 900);
    counter.count('c', 950);
    counter.count('d', 1100); // 'old' has ended: it goes
    expect(counter.size).toBe(3);
    expect(counter.blockedFor('b', 1200)).toBeGreaterThan(0);
    counter.count('e', 1200); // none ended: the oldest ('b') goes
    expect(counter.size).toBe(3);
    expect(counter.blockedFor('b', 1200)).toBe(0);
    expect(counter.blockedFor('c', 1200)).toBeGreaterThan(0);
  });
});

describe('LoginThrottle', () => {
  it('holds back an address or a username once either allowance is used up, in whole seconds', () => {
    let now = 0;
    const throttle = new LoginThrottle({ perAddress: 3, perUsername: 2, windowSeconds: 60 }, () => now);
    throttle.refused({ ip: '1.1.1.1', username: 'Alice' });
    now = 1000;
    throttle.refused({ ip: '2.2.2.2', username: ' alice ' });
    expect(throttle.retryAfter({ ip: '3.3.3.3', username: 'ALICE' })).toBe(59);
    expect(throttle.retryAfter({ ip: '3.3.3.3', username: 'bob' })).toBe(0);
    throttle.refused({ ip: '1.1.1.1', username: 'x' });
    throttle.refused({ ip: '1.1.1.1' });
    expect(throttle.retryAfter({ ip: '1.1.1.1' })).toBe(59);
    now = 60_001;
    expect(throttle.retryAfter({ ip: '1.1.1.1', username: 'alice' })).toBe(0);
  });

  it('an account given back forgives its username’s and the attempt address’s windows begun before', () => {
    let now = 0;
    const throttle = new LoginThrottle({ perAddress: 2, perUsername: 2, windowSeconds: 60 }, () => now);
    throttle.refused({ ip: '1.1.1.1', username: 'alice' });
    throttle.refused({ ip: '1.1.1.1', username: 'alice' });
    now = 5000;
    expect(throttle.retryAfter({ ip: '1.1.1.1', username: 'alice' })).toBe(55);
    // Restored before the windows began: nothing to forgive.
    expect(throttle.forgive({ ip: '1.1.1.1', username: 'alice' }, -1)).toBe(false);
    expect(throttle.forgive({ ip: '1.1.1.1', username: 'alice' }, 4000)).toBe(true);
    expect(throttle.retryAfter({ ip: '1.1.1.1', username: 'alice' })).toBe(0);
    // What is refused afterwards counts again, and a second forgiveness needs a later restore.
    throttle.refused({ ip: '1.1.1.1', username: 'alice' });
    throttle.refused({ ip: '1.1.1.1', username: 'alice' });
    expect(throttle.forgive({ ip: '1.1.1.1', username: 'alice' }, 4000)).toBe(false);
    expect(throttle.retryAfter({ ip: '1.1.1.1', username: 'alice' })).toBe(60);
  });
});
