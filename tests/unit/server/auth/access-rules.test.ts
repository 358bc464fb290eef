// The IP rule matcher (server/auth/access-rules.ts): what an administrator may type as an address or
// range and its canonical form, IPv4-mapped IPv6 on both sides, and the order of the decision.
import { describe, expect, it } from 'vitest';
import {
  ACCESS_MSG, decideAccess, displayAddress, parseRuleAddress, toAccessRule, type AccessRule,
} from '../../../../server/auth/access-rules.ts';

const canonical = (text: string) => {
  const parsed = parseRuleAddress(text);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.canonical;
};
const problem = (text: string) => {
  const parsed = parseRuleAddress(text);
  return 'problem' in parsed ? parsed.problem : null;
};

let nextId = 1;
const rule = (address: string, action: 'ALLOW' | 'DENY', options: { users?: number[]; enabled?: boolean } = {}): AccessRule =>
  toAccessRule({ id: nextId++, address, action, scope: options.users ? 'USERS' : 'ALL', userIds: options.users ?? [], enabled: options.enabled ?? true })!;

describe('parseRuleAddress', () => {
  it('accepts single IPv4 and IPv6 addresses and CIDR ranges, in canonical form', () => {
    expect(canonical('192.168.1.10')).toBe('192.168.1.10');
    expect(canonical(' 10.0.0.0/8 ')).toBe('10.0.0.0/8');
    expect(canonical('192.168.1.10/32')).toBe('192.168.1.10');
    expect(canonical('0.0.0.0/0')).toBe('0.0.0.0/0');
    expect(canonical('2001:0DB8:0000:0000:0000:0000:0000:0001')).toBe('2001:db8::1');
    expect(canonical('2001:db8::/32')).toBe('2001:db8::/32');
    expect(canonical('::1/128')).toBe('::1');
    expect(canonical('::/0')).toBe('::/0');
  });

  it('turns IPv4-mapped IPv6 addresses and ranges into IPv4', () => {
    expect(canonical('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(canonical('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    expect(canonical('::ffff:0:0/96')).toBe('0.0.0.0/0');
  });

  it('refuses what is not an address, a prefix out of range and host bits set, with Chinese messages', () => {
    expect(problem('')).toBe(ACCESS_MSG.addressRequired);
    expect(problem('   ')).toBe(ACCESS_MSG.addressRequired);
    for (const bad of ['localhost', '256.1.1.1', '1.2.3', '127.1', '0x7f.0.0.1', '010.0.0.1', '1.2.3.4/8/8', '1.2.3.4-1.2.3.9', 'fe80::1%eth0', '2001:db8:::1', '１.2.3.4']) {
      expect(problem(bad), bad).toBe(ACCESS_MSG.addressInvalid(bad));
    }
    expect(problem('10.0.0.0/33')).toBe('“10.0.0.0/33”的前缀长度须为 0 到 32 之间的整数');
    expect(problem('10.0.0.0/-1')).toBe(ACCESS_MSG.prefixInvalid('10.0.0.0/-1', 32));
    expect(problem('10.0.0.0/')).toBe(ACCESS_MSG.prefixInvalid('10.0.0.0/', 32));
    expect(problem('10.0.0.0/ 8')).toBe(ACCESS_MSG.prefixInvalid('10.0.0.0/ 8', 32));
    expect(problem('2001:db8::/129')).toBe('“2001:db8::/129”的前缀长度须为 0 到 128 之间的整数');
    expect(problem('10.0.0.5/8')).toBe('网段“10.0.0.5/8”的主机位不为 0，应写作 10.0.0.0/8');
    expect(problem('2001:db8::1/32')).toBe('网段“2001:db8::1/32”的主机位不为 0，应写作 2001:db8::/32');
  });
});

describe('decideAccess', () => {
  it('lets everyone in when no rule counts', () => {
    expect(decideAccess([], 1, '203.0.113.9')).toEqual({ allowed: true });
    expect(decideAccess([rule('10.0.0.0/8', 'ALLOW', { enabled: false })], 1, '203.0.113.9').allowed).toBe(true);
    // A rule for other users does not count.
    expect(decideAccess([rule('10.0.0.0/8', 'ALLOW', { users: [2] })], 1, '203.0.113.9').allowed).toBe(true);
  });

  it('requires a match of some allow rule once one applies', () => {
    const rules = [rule('10.0.0.0/8', 'ALLOW'), rule('192.168.1.10', 'ALLOW')];
    expect(decideAccess(rules, 1, '10.200.3.4').allowed).toBe(true);
    expect(decideAccess(rules, 1, '192.168.1.10').allowed).toBe(true);
    expect(decideAccess(rules, 1, '192.168.1.11')).toEqual({ allowed: false, deniedBy: null });
  });

  it('refuses on a matching deny rule whatever allows', () => {
    const deny = rule('10.1.0.0/16', 'DENY');
    const rules = [rule('10.0.0.0/8', 'ALLOW'), deny];
    expect(decideAccess(rules, 1, '10.1.2.3')).toEqual({ allowed: false, deniedBy: deny });
    expect(decideAccess(rules, 1, '10.2.2.3').allowed).toBe(true);
    // Deny alone refuses only what it matches.
    expect(decideAccess([deny], 1, '10.2.2.3').allowed).toBe(true);
  });

  it('applies named-user rules only to those users', () => {
    const rules = [rule('10.0.0.0/8', 'ALLOW', { users: [7] }), rule('172.16.0.0/12', 'DENY', { users: [8] })];
    expect(decideAccess(rules, 7, '192.0.2.1').allowed).toBe(false);
    expect(decideAccess(rules, 7, '10.0.0.1').allowed).toBe(true);
    expect(decideAccess(rules, 8, '172.16.5.5').allowed).toBe(false);
    expect(decideAccess(rules, 8, '192.0.2.1').allowed).toBe(true);
    expect(decideAccess(rules, 9, '172.16.5.5').allowed).toBe(true);
  });

  it('matches IPv4-mapped client addresses against IPv4 rules, and IPv6 against IPv6 only', () => {
    expect(decideAccess([rule('127.0.0.1', 'ALLOW')], 1, '::ffff:127.0.0.1').allowed).toBe(true);
    expect(decideAccess([rule('10.0.0.0/8', 'DENY')], 1, '::ffff:10.9.9.9').allowed).toBe(false);
    expect(decideAccess([rule('2001:db8::/32', 'ALLOW')], 1, '2001:db8:1::5').allowed).toBe(true);
    expect(decideAccess([rule('2001:db8::/32', 'ALLOW')], 1, '2001:db9::5').allowed).toBe(false);
    // An IPv6 range, even ::/0, does not hold IPv4 clients.
    expect(decideAccess([rule('::/0', 'ALLOW')], 1, '10.0.0.1').allowed).toBe(false);
    expect(decideAccess([rule('0.0.0.0/0', 'ALLOW')], 1, '::1').allowed).toBe(false);
    expect(decideAccess([rule('::1', 'ALLOW')], 1, '::1').allowed).toBe(true);
  });

  it('treats an unreadable client address as matching nothing', () => {
    expect(decideAccess([rule('10.0.0.0/8', 'DENY')], 1, 'garbage').allowed).toBe(true);
    expect(decideAccess([rule('10.0.0.0/8', 'ALLOW')], 1, 'garbage').allowed).toBe(false);
  });

  it('shows mapped client addresses as IPv4', () => {
    expect(displayAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(displayAddress('::1')).toBe('::1');
    expect(displayAddress('not-an-ip')).toBe('not-an-ip');
  });
});
