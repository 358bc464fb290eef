// 安全管控 IP rules: parsing an address or CIDR range (ipaddr.js), deciding whether a user may
// reach the platform from an address, and the rules of a database kept in memory for a few
// seconds. The order of the decision is the contract's (contract/api/access.ts):
//   1. only enabled rules for all users or naming the user count;
//   2. a matching DENY rule refuses, whatever allows;
//   3. if any ALLOW rule counts, the address must match one of them;
//   4. otherwise the user is let in.
// An IPv4-mapped IPv6 address is its IPv4 address (for clients and for rules alike); an IPv6 range
// matches IPv6 addresses only.
//
// The login paths (services/sessions.ts, the one session-opening function) and the guard
// (auth/guard.ts, every call of a session) ask accessRefusal(); the rule commands
// (services/access-rules.ts) call invalidateAccessRules() once they have committed, and check their
// new rule set with decideAccess() before (the lock-out guard).
import ipaddr from 'ipaddr.js';
import type { Kysely } from 'kysely';
import { ACCESS_ACTION, ACCESS_SCOPE, type AccessAction } from '../../contract/api/access.ts';
import { accessRuleRecords } from '../db/repositories/access-rules.ts';
import type { Database } from '../db/schema.ts';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type IpRange = [IpAddress, number];

/** A parsed rule address: its range and the canonical text it is stored and shown as. */
export interface RuleAddress {
  range: IpRange;
  /** `192.168.1.5` (a single address, no prefix), `10.0.0.0/8`, `2001:db8::/32`. */
  canonical: string;
}

export const ACCESS_MSG = {
  addressRequired: '请填写 IP 地址或网段',
  addressInvalid: (text: string) => `“${text}”不是有效的 IP 地址或网段（如 192.168.1.10、10.0.0.0/8、2001:db8::/32）`,
  prefixInvalid: (text: string, max: number) => `“${text}”的前缀长度须为 0 到 ${max} 之间的整数`,
  hostBits: (text: string, network: string) => `网段“${text}”的主机位不为 0，应写作 ${network}`,
  /** Told at login and on a session's call: which rule refused is not said. */
  refused: (ip: string) => `当前地址 ${ip} 不允许访问平台，请联系管理员`,
};

const maxPrefix = (address: IpAddress) => (address.kind() === 'ipv4' ? 32 : 128);

const canonicalOf = ([address, prefix]: IpRange): string =>
  (prefix === maxPrefix(address) ? address.toString() : `${address.toString()}/${prefix}`);

/**
 * One address or CIDR range as an administrator types it: an IPv4 address in dotted decimal
 * (four parts, no octal or hex forms), or an IPv6 address (no zone), optionally with `/prefix`.
 * An IPv4-mapped IPv6 address or range (::ffff:10.0.0.0/104) becomes its IPv4 one. A range with
 * host bits set (10.0.0.5/8) is refused rather than silently widened. The refusal's message
 * otherwise.
 */
export function parseRuleAddress(input: string): RuleAddress | { problem: string } {
  const text = input.trim();
  if (!text) return { problem: ACCESS_MSG.addressRequired };
  const parts = text.split('/');
  if (parts.length > 2) return { problem: ACCESS_MSG.addressInvalid(text) };
  const [host, prefixText] = parts as [string, string | undefined];
  let address: IpAddress;
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) address = ipaddr.IPv4.parse(host);
  else if (host.includes(':') && !host.includes('%') && ipaddr.IPv6.isValid(host)) address = ipaddr.IPv6.parse(host);
  else return { problem: ACCESS_MSG.addressInvalid(text) };

  let prefix = maxPrefix(address);
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > prefix) return { problem: ACCESS_MSG.prefixInvalid(text, prefix) };
    prefix = Number(prefixText);
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    address = (address as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  const network = address.kind() === 'ipv4'
    ? ipaddr.IPv4.networkAddressFromCIDR(`${address.toString()}/${prefix}`)
    : ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${prefix}`);
  if (network.toString() !== address.toString()) return { problem: ACCESS_MSG.hostBits(text, canonicalOf([network, prefix])) };
  return { range: [address, prefix], canonical: canonicalOf([address, prefix]) };
}

/** A client's address as the connection gives it, IPv4-mapped IPv6 as IPv4; null when unreadable. */
export function parseClientAddress(raw: string): IpAddress | null {
  try {
    return ipaddr.process(raw.trim());
  } catch {
    return null;
  }
}

/** The client's address as the platform shows it (`::ffff:127.0.0.1` is `127.0.0.1`). */
export const displayAddress = (raw: string): string => parseClientAddress(raw)?.toString() ?? raw;

export const rangeMatches = (address: IpAddress, [network, prefix]: IpRange): boolean =>
  address.kind() === network.kind() && address.match(network, prefix);

/** A rule as the decision reads it. */
export interface AccessRule {
  id: number;
  /** The canonical address text (the lock-out guard names the rule by it). */
  address: string;
  range: IpRange;
  action: AccessAction;
  /** null: every user; else the users it names. */
  userIds: ReadonlySet<number> | null;
  enabled: boolean;
}

export type AccessDecision =
  | { allowed: true }
  /** A DENY rule matched (the first, by id). */
  | { allowed: false; deniedBy: AccessRule }
  /** ALLOW rules apply to the user and none matched. */
  | { allowed: false; deniedBy: null };

/** Whether `userId` may reach the platform from `address` under `rules` (the order at the top). */
export function decideAccess(rules: readonly AccessRule[], userId: number, address: string): AccessDecision {
  const client = parseClientAddress(address);
  const counted = rules.filter((r) => r.enabled && (r.userIds === null || r.userIds.has(userId)));
  const matches = (r: AccessRule) => client !== null && rangeMatches(client, r.range);
  const denied = counted.find((r) => r.action === ACCESS_ACTION.DENY && matches(r));
  if (denied) return { allowed: false, deniedBy: denied };
  const allows = counted.filter((r) => r.action === ACCESS_ACTION.ALLOW);
  if (allows.length && !allows.some(matches)) return { allowed: false, deniedBy: null };
  return { allowed: true };
}

/** A stored rule for the decision; undefined for an address that no longer parses (never stored so). */
export function toAccessRule(record: { id: number; address: string; action: AccessAction; scope: string; userIds: readonly number[]; enabled: boolean }): AccessRule | undefined {
  const parsed = parseRuleAddress(record.address);
  if ('problem' in parsed) return undefined;
  return {
    id: record.id,
    address: parsed.canonical,
    range: parsed.range,
    action: record.action,
    userIds: record.scope === ACCESS_SCOPE.ALL ? null : new Set(record.userIds),
    enabled: record.enabled,
  };
}

// ---- the rules of a database, kept for a few seconds ----------------------------------------------

/**
 * How long a process trusts the rules it read: another process's change (several platform processes
 * on one PostgreSQL) is seen within this time; this process's own changes at once.
 */
export const ACCESS_RULES_CACHE_MS = 5_000;

const cache = new WeakMap<object, { at: number; rules: Promise<AccessRule[]> }>();

async function loadRules(db: Kysely<Database>): Promise<AccessRule[]> {
  return (await accessRuleRecords(db)).map(toAccessRule).filter((r): r is AccessRule => r !== undefined);
}

/** The rules of the database, read at most every ACCESS_RULES_CACHE_MS. */
export function cachedAccessRules(db: Kysely<Database>, now = Date.now()): Promise<AccessRule[]> {
  const hit = cache.get(db);
  if (hit && now - hit.at < ACCESS_RULES_CACHE_MS) return hit.rules;
  const rules = loadRules(db);
  cache.set(db, { at: now, rules });
  // A failed read is not kept: the next request reads again.
  rules.catch(() => {
    if (cache.get(db)?.rules === rules) cache.delete(db);
  });
  return rules;
}

/** Forgets the cached rules (after a rule command committed). */
export function invalidateAccessRules(db: Kysely<Database>): void {
  cache.delete(db);
}

/** Null when the user may reach the platform from `ip`, else the message they are refused with. */
export async function accessRefusal(db: Kysely<Database>, userId: number, ip: string): Promise<string | null> {
  const decision = decideAccess(await cachedAccessRules(db), userId, ip);
  return decision.allowed ? null : ACCESS_MSG.refused(displayAddress(ip));
}
