// A real OpenLDAP server on loopback for the directory-login tests: Debian's slapd (with
// ldap-utils' slappasswd) started from a throwaway slapd.conf (`slapd -f`, no cn=config and no
// system service), one mdb database loaded offline with slapadd from an LDIF of people, groups and
// a read-only service account, listening on ldap:// (StartTLS offered) and ldaps:// with a server
// certificate from a throwaway test CA (openssl). Everything lives in one temp folder, removed by
// stop(). As root (CI) slapd simply runs as root: it needs no privileged port here.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { hasCommand } from './commands.ts';
import { freePort, makeTestCa } from './registry.ts';

const run = promisify(execFile);

export const SLAPD_BASE_DN = 'dc=cairn,dc=test';
export const SLAPD_PEOPLE_DN = `ou=people,${SLAPD_BASE_DN}`;
export const SLAPD_GROUPS_DN = `ou=groups,${SLAPD_BASE_DN}`;
/** The directory's administrator (rootdn): the tests change entries with it. */
export const SLAPD_ADMIN = { dn: `cn=admin,${SLAPD_BASE_DN}`, password: 'Admin#Dir0' };
/** The service account the platform searches with: it may read people and groups, nothing else. */
export const SLAPD_READER = { dn: `cn=reader,ou=services,${SLAPD_BASE_DN}`, password: 'Reader#2024' };

export interface DirectoryPerson {
  uid: string;
  cn: string;
  sn: string;
  password: string;
  mail?: string;
  telephoneNumber?: string;
}

/** The people of the test directory (in ou=people). */
export const SLAPD_PEOPLE: readonly DirectoryPerson[] = [
  { uid: 'alice', cn: '王爱丽', sn: '王', password: 'Alice#Dir1', mail: 'alice@cairn.test', telephoneNumber: '+86 10 5555 0101' },
  { uid: 'bob', cn: 'Bob Li', sn: 'Li', password: 'Bob#Dir22', mail: 'bob@cairn.test' },
  { uid: 'carol', cn: 'Carol Zhao', sn: 'Zhao', password: 'Carol#Dir3' },
  // A name with a filter's special characters: found only when the filter escapes them.
  { uid: 'dev(ops)*', cn: 'Dev Ops', sn: 'Ops', password: 'DevOps#Dir4' },
];

/** groupOfNames entries in ou=groups: name -> member uids. */
export const SLAPD_GROUPS: Readonly<Record<string, readonly string[]>> = {
  developers: ['alice', 'bob'],
  auditors: ['carol'],
};

export const personDn = (uid: string): string => `uid=${uid.replace(/[,+"\\<>;=#]/g, (c) => `\\${c}`)},${SLAPD_PEOPLE_DN}`;
export const groupDn = (cn: string): string => `cn=${cn},${SLAPD_GROUPS_DN}`;

export interface TestSlapd {
  /** ldap://127.0.0.1:PORT (StartTLS available). */
  url: string;
  /** ldaps://127.0.0.1:PORT, certificate signed by `caPem`. */
  ldapsUrl: string;
  /** The test CA's certificate (PEM) that signed the server's. */
  caPem: string;
  stop(): Promise<void>;
}

/** Why the directory tests cannot run here, or null when slapd, slappasswd and openssl are installed. */
export function slapdMissing(): string | null {
  const missing = ['/usr/sbin/slapd', '/usr/sbin/slapadd', '/usr/sbin/slappasswd', 'openssl'].filter((tool) => !hasCommand('sh', '-c', `command -v ${tool}`));
  return missing.length ? `未安装 ${missing.join('、')}（Debian: apt-get install slapd ldap-utils openssl）` : null;
}

const hash = async (password: string): Promise<string> => (await run('/usr/sbin/slappasswd', ['-h', '{SSHA}', '-s', password])).stdout.trim();

async function ldif(): Promise<string> {
  const entries: string[] = [
    `dn: ${SLAPD_BASE_DN}\nobjectClass: dcObject\nobjectClass: organization\ndc: cairn\no: Cairn Test`,
    `dn: ou=people,${SLAPD_BASE_DN}\nobjectClass: organizationalUnit\nou: people`,
    `dn: ou=groups,${SLAPD_BASE_DN}\nobjectClass: organizationalUnit\nou: groups`,
    `dn: ou=services,${SLAPD_BASE_DN}\nobjectClass: organizationalUnit\nou: services`,
    `dn: ${SLAPD_READER.dn}\nobjectClass: organizationalRole\nobjectClass: simpleSecurityObject\ncn: reader\nuserPassword: ${await hash(SLAPD_READER.password)}`,
  ];
  for (const p of SLAPD_PEOPLE) {
    // Non-ASCII values go base64 (`attr:: …`), as LDIF requires.
    const line = (attr: string, value: string) => (/^[\x20-\x7e]*$/.test(value) && !/^[ :<]/.test(value) ? `${attr}: ${value}` : `${attr}:: ${Buffer.from(value).toString('base64')}`);
    entries.push([
      line('dn', personDn(p.uid)), 'objectClass: inetOrgPerson', line('uid', p.uid), line('cn', p.cn), line('sn', p.sn),
      ...(p.mail ? [`mail: ${p.mail}`] : []), ...(p.telephoneNumber ? [`telephoneNumber: ${p.telephoneNumber}`] : []),
      `userPassword: ${await hash(p.password)}`,
    ].join('\n'));
  }
  for (const [cn, members] of Object.entries(SLAPD_GROUPS)) {
    entries.push([`dn: ${groupDn(cn)}`, 'objectClass: groupOfNames', `cn: ${cn}`, ...members.map((m) => `member: ${personDn(m)}`)].join('\n'));
  }
  return `${entries.join('\n\n')}\n`;
}

function config(dir: string, ca: { certFile: string; keyFile: string; caFile: string }, rootpw: string): string {
  return [
    'include /etc/ldap/schema/core.schema',
    'include /etc/ldap/schema/cosine.schema',
    'include /etc/ldap/schema/inetorgperson.schema',
    `pidfile ${join(dir, 'slapd.pid')}`,
    `argsfile ${join(dir, 'slapd.args')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    `TLSCACertificateFile ${ca.caFile}`,
    `TLSCertificateFile ${ca.certFile}`,
    `TLSCertificateKeyFile ${ca.keyFile}`,
    'database mdb',
    `suffix "${SLAPD_BASE_DN}"`,
    `rootdn "${SLAPD_ADMIN.dn}"`,
    `rootpw ${rootpw}`,
    `directory ${join(dir, 'db')}`,
    'maxsize 33554432',
    // Passwords: only a bind may use them. Everything else: the service account and signed-in users read.
    'access to attrs=userPassword by anonymous auth by self auth by * none',
    `access to * by dn.exact="${SLAPD_READER.dn}" read by users read by * none`,
    '',
  ].join('\n');
}

async function accepting(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`slapd 已退出（${child.exitCode}）：${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`slapd 未在 20 秒内开始监听：${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts slapd with the test directory; stop() ends it and removes its folder. */
export async function startSlapd(): Promise<TestSlapd> {
  const missing = slapdMissing();
  if (missing) throw new Error(missing);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-slapd-'));
  try {
    const ca = await makeTestCa(join(dir, 'tls'));
    mkdirSync(join(dir, 'db'));
    const conf = join(dir, 'slapd.conf');
    writeFileSync(conf, config(dir, ca, await hash(SLAPD_ADMIN.password)));
    writeFileSync(join(dir, 'data.ldif'), await ldif());
    await run('/usr/sbin/slapadd', ['-f', conf, '-l', join(dir, 'data.ldif')]);

    const [port, tlsPort] = [await freePort(), await freePort()];
    // -d 0: stay in the foreground (the child is the server) and log nothing but errors to stderr.
    const child = spawn('/usr/sbin/slapd', ['-f', conf, '-h', `ldap://127.0.0.1:${port}/ ldaps://127.0.0.1:${tlsPort}/`, '-d', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
    await accepting(port, child, () => stderr);
    await accepting(tlsPort, child, () => stderr);

    return {
      url: `ldap://127.0.0.1:${port}`,
      ldapsUrl: `ldaps://127.0.0.1:${tlsPort}`,
      caPem: ca.caPem,
      async stop() {
        if (child.exitCode === null) {
          const exited = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGTERM');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
          if (child.exitCode === null) child.kill('SIGKILL');
        }
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
