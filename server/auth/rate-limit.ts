// Login throttling: refused logins counted per client address and per username in fixed windows,
// in this process's memory. A login is answered 429 (with Retry-After) while either of its keys
// has used up its window's allowance; a successful login is never counted, so an office behind
// one address is held back by its wrong passwords only.
//
// Giving an account back (an administrator's unlock, `cairn user unlock` or `reset-password`, from
// this process or another) writes users.restored_at; a login held back for that username
// forgives the windows, its address's and its username's, that began before it (forgive()), so
// the recovery restores access at once rather than after the window.
//
// Per process: a team server run as several platform processes behind a load balancer allows up
// to that many times the limits (the automatic lock, kept in the database, stays exact). Behind a
// reverse proxy every client has the proxy's address unless CAIRN_TRUST_PROXY names the proxy
// (server/config.ts); X-Forwarded-For is not trusted by default.

export interface LoginRateLimits {
  /** Refused logins allowed per client address in a window (0: no limit). */
  perAddress: number;
  /** Refused logins allowed per username in a window (0: no limit). */
  perUsername: number;
  windowSeconds: number;
}

/** 30 refused logins per address and 10 per username in 5 minutes. */
export const DEFAULT_LOGIN_RATE_LIMITS: LoginRateLimits = { perAddress: 30, perUsername: 10, windowSeconds: 300 };

/** Keys kept per limiter; past it, ended windows go first, then the oldest. */
const MAX_KEYS = 10_000;

interface Window {
  endsAt: number;
  count: number;
}

/** Counts events per key in fixed windows of `windowMs` that start at a key's first event. */
export class FixedWindowCounter {
  private readonly windows = new Map<string, Window>();
  private readonly limit: number;
  private readonly windowMs: number;
  private readonly maxKeys: number;

  constructor(limit: number, windowMs: number, maxKeys = MAX_KEYS) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.maxKeys = maxKeys;
  }

  /** Milliseconds until `key` may try again, or 0 when it may now. */
  blockedFor(key: string, now: number): number {
    if (this.limit <= 0) return 0;
    const window = this.windows.get(key);
    if (!window || window.endsAt <= now) return 0;
    return window.count >= this.limit ? window.endsAt - now : 0;
  }

  count(key: string, now: number): void {
    if (this.limit <= 0) return;
    const window = this.windows.get(key);
    if (window && window.endsAt > now) {
      window.count += 1;
      return;
    }
    this.windows.delete(key);
    if (this.windows.size >= this.maxKeys) this.evict(now);
    this.windows.set(key, { endsAt: now + this.windowMs, count: 1 });
  }

  /** Forgets the window of `key` when it began at or before `since`; true when there was one. */
  forgive(key: string, since: number): boolean {
    const window = this.windows.get(key);
    if (!window || window.endsAt - this.windowMs > since) return false;
    return this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private evict(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    // Insertion order is age order: drop the oldest until there is room.
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}

/** Who is logging in: the client address, and the username when the call names one. */
export interface LoginAttempt {
  ip: string;
  username?: string;
}

export class LoginThrottle {
  private readonly byAddress: FixedWindowCounter;
  private readonly byUsername: FixedWindowCounter;
  private readonly clock: () => number;

  constructor(limits: LoginRateLimits, clock: () => number = Date.now) {
    this.clock = clock;
    const windowMs = Math.max(1, limits.windowSeconds) * 1000;
    this.byAddress = new FixedWindowCounter(limits.perAddress, windowMs);
    this.byUsername = new FixedWindowCounter(limits.perUsername, windowMs);
  }

  /** Seconds to wait before this attempt may be made (Retry-After), or 0 when it may go ahead. */
  retryAfter(attempt: LoginAttempt): number {
    const now = this.clock();
    const wait = Math.max(this.byAddress.blockedFor(attempt.ip, now), attempt.username === undefined ? 0 : this.byUsername.blockedFor(usernameKey(attempt.username), now));
    return Math.ceil(wait / 1000);
  }

  /**
   * The account was given back at `restoredAt` (ms): the attempt's windows that began before then
   * are forgotten. True when one was.
   */
  forgive(attempt: LoginAttempt, restoredAt: number): boolean {
    const byAddress = this.byAddress.forgive(attempt.ip, restoredAt);
    const byUsername = attempt.username !== undefined && this.byUsername.forgive(usernameKey(attempt.username), restoredAt);
    return byAddress || byUsername;
  }

  /** Counts a refused attempt against its address and username. */
  refused(attempt: LoginAttempt): void {
    const now = this.clock();
    this.byAddress.count(attempt.ip, now);
    if (attempt.username !== undefined) this.byUsername.count(usernameKey(attempt.username), now);
  }
}

/** Usernames differing only in case or surrounding blanks share an allowance. */
const usernameKey = (username: string): string => username.trim().toLowerCase();
