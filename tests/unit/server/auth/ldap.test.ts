// The pure parts of directory login (server/auth/ldap.ts, services/ldap.ts): the URL check, the
// RFC 4515 escaping of the typed name in the user filter, the filter, attribute and CA checks, and
// the DN comparison the group mappings use. The protocol itself is tested against a real slapd
// (tests/integration/server/ldap.test.ts).
import { describe, expect, it } from 'vitest';
import { checkCaCertificate, checkLdapUrl, DirectoryError, fillFilter, isAttributeName, isFilter } from '../../../../server/auth/ldap.ts';
import { normaliseDn } from '../../../../server/services/ldap.ts';

const refusal = (check: () => unknown): string | undefined => {
  try {
    check();
    return undefined;
  } catch (error) {
    return error instanceof DirectoryError ? `${error.field}: ${error.message}` : String(error);
  }
};

describe('checkLdapUrl', () => {
  it('keeps the scheme, host and port only', () => {
    expect(checkLdapUrl(' ldaps://ldap.example.com:636/ ')).toBe('ldaps://ldap.example.com:636');
    expect(checkLdapUrl('ldap://10.0.0.5')).toBe('ldap://10.0.0.5');
    expect(checkLdapUrl('LDAP://[::1]:389')).toBe('ldap://[::1]:389');
  });
  it('refuses other schemes, paths, queries and credentials beside the url field', () => {
    expect(refusal(() => checkLdapUrl('https://ldap.example.com'))).toBe('url: LDAP 地址只支持 ldap:// 或 ldaps://');
    expect(refusal(() => checkLdapUrl('ldap.example.com'))).toBe('url: LDAP 地址无效，请填写 ldap://主机[:端口] 或 ldaps://主机[:端口]');
    for (const url of ['ldap://h/dc=example,dc=com', 'ldap://h?uid', 'ldap://u:p@h', 'ldap://h#x']) {
      expect(refusal(() => checkLdapUrl(url)), url).toBe('url: LDAP 地址只填写协议、主机和端口，不要包含路径、查询参数或账号');
    }
  });
});

describe('fillFilter', () => {
  it('escapes the filter\'s special characters of the typed name (RFC 4515)', () => {
    const filter = '(&(objectClass=person)(uid={username}))';
    expect(fillFilter(filter, '{username}', 'alice')).toBe('(&(objectClass=person)(uid=alice))');
    expect(fillFilter(filter, '{username}', '*')).toBe('(&(objectClass=person)(uid=\\2a))');
    expect(fillFilter(filter, '{username}', 'a)(uid=*')).toBe('(&(objectClass=person)(uid=a\\29\\28uid=\\2a))');
    expect(fillFilter(filter, '{username}', 'back\\slash\u0000')).toBe('(&(objectClass=person)(uid=back\\5cslash\\00))');
    expect(fillFilter('(|(uid={username})(mail={username}))', '{username}', '王*')).toBe('(|(uid=王\\2a)(mail=王\\2a))');
  });
  it('keeps a filled filter a valid filter, whatever was typed', () => {
    for (const typed of ['*', ')(', '((((', '\\', 'x)(|(uid=*']) expect(isFilter(fillFilter('(uid={username})', '{username}', typed)), typed).toBe(true);
  });
});

describe('isFilter', () => {
  it('accepts filters and refuses unbalanced or bare text', () => {
    expect(isFilter('(&(objectClass=inetOrgPerson)(uid=x))')).toBe(true);
    expect(isFilter('(&(uid=x)')).toBe(false);
    expect(isFilter('(uid=x))')).toBe(false);
    expect(isFilter('uid=x')).toBe(false);
    expect(isFilter('')).toBe(false);
  });
});

describe('isAttributeName', () => {
  it('accepts names, OIDs and options, and nothing that could change a filter', () => {
    for (const ok of ['uid', 'sAMAccountName', 'telephoneNumber', 'userCertificate;binary', '0.9.2342.19200300.100.1.1']) expect(isAttributeName(ok), ok).toBe(true);
    for (const bad of ['', 'u id', 'uid)(cn=*', '1uid', 'mail;x y', 'cn=x']) expect(isAttributeName(bad), bad).toBe(false);
  });
});

describe('checkCaCertificate', () => {
  it('refuses text that holds no parsable certificate', () => {
    expect(refusal(() => checkCaCertificate('hello'))).toBe('caCertificate: CA 证书不是有效的 PEM 证书');
    expect(refusal(() => checkCaCertificate('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----'))).toBe('caCertificate: CA 证书不是有效的 PEM 证书');
  });
});

describe('normaliseDn', () => {
  it('compares DNs without case or the spaces around separators', () => {
    expect(normaliseDn('CN=Developers, OU=Groups,DC=Example, DC=com')).toBe(normaliseDn('cn=developers,ou=groups,dc=example,dc=com'));
    expect(normaliseDn('cn=a,dc=x')).not.toBe(normaliseDn('cn=b,dc=x'));
  });
});
