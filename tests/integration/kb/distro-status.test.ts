// Issue 16 item 6 end to end: distributions' vulnerability data imported through the knowledge
// base's import path (real OSV records of Debian, Ubuntu, AlmaLinux and Alpine in
// tests/fixtures/osv-distro, trivy's database for Red Hat, Rocky, AlmaLinux 8, SUSE, openSUSE,
// Debian's and Ubuntu's statuses), then package databases analysed as the analysis does (scan,
// distribution release and source package from the purls, match): every distribution matched by
// source package and release with its own version ordering, the fixed-in version or the
// distribution's reason there is none (will_not_fix, end_of_life, fix_deferred), and a
// not_affected statement that produces no finding.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases } from '../server/harness.ts';
import { importKnowledge } from '../../../server/kb/import.ts';
import { loadAdvisories } from '../../../server/db/repositories/knowledge-base.ts';
import { affectedOf } from '../../../server/db/repositories/vulnerabilities.ts';
import { buildAdvisoryIndex, loadExtractors, matchComponents, scanTree, withDistribution, type AdvisoryIndex } from '../../../server/engine/index.ts';
import { buildBdb, buildNdb, packageHeader, type PackageSpec } from '../../support/rpmdb.ts';
import { openKb, type KbDatabase } from './helpers.ts';

const { allExtractors } = await loadExtractors();
const OSV_FIXTURES = 'tests/fixtures/osv-distro';
const TRIVY_DB = '../shared/corpora/trivy/db';
const APK_INSTALLED = '../shared/corpora/os/scalibr/apk/testdata/installed';

const stanza = (name: string, version: string, source?: string) =>
  `Package: ${name}\nStatus: install ok installed\nArchitecture: amd64\n${source ? `Source: ${source}\n` : ''}Version: ${version}\n`;
const dpkg = (...stanzas: string[]) => stanzas.join('\n');
const apk = (...packages: [name: string, version: string, origin: string][]) =>
  packages.map(([p, v, o]) => `P:${p}\nV:${v}\nA:x86_64\no:${o}\n`).join('\n');

async function sqliteOf(blobs: Buffer[]): Promise<Buffer> {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(':memory:');
  db.exec('CREATE TABLE Packages (hnum INTEGER PRIMARY KEY AUTOINCREMENT, blob BLOB NOT NULL)');
  const insert = db.prepare('INSERT INTO Packages (blob) VALUES (?)');
  for (const b of blobs) insert.run(b);
  const image = Buffer.from(db.serialize());
  db.close();
  return image;
}
const rpms = (...specs: PackageSpec[]) => specs.map(packageHeader);

interface Seen { ids: string[]; fixState: string; fixedVersions: string[] }

describe.each(databases)('发行版漏洞：导入与按源码包、发行版本匹配（$name）', (database) => {
  let kb: KbDatabase;
  let index: AdvisoryIndex;
  const dirs: string[] = [];

  beforeAll(async () => {
    kb = await openKb(database);
    const osv = await importKnowledge(kb.db, OSV_FIXTURES);
    expect(osv).toMatchObject({ kind: 'osv', files: 4, imported: 4, failed: 0 });
    const trivy = await importKnowledge(kb.db, TRIVY_DB);
    expect(trivy).toMatchObject({ kind: 'trivy', failed: 0 });
    index = buildAdvisoryIndex(await loadAdvisories(kb.db));
  }, 120_000);
  afterAll(async () => {
    await kb?.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  });

  /** Writes a root filesystem, scans it and matches it: package name → its findings. */
  async function analyse(files: Record<string, string | Buffer>): Promise<Map<string, Seen[]>> {
    const root = await mkdtemp(path.join(os.tmpdir(), 'cairn-distro-'));
    dirs.push(root);
    for (const [rel, body] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await writeFile(path.join(root, rel), body);
    }
    const scan = await scanTree(root, { extractors: allExtractors });
    expect(scan.problems).toEqual([]);
    const components = scan.targets.flatMap((t) => t.components);
    const out = new Map<string, Seen[]>();
    for (const { component, findings } of matchComponents(index, components.map(withDistribution))) {
      out.set(component.name, findings.map((f) => ({ ids: [f.id, ...f.aliases], fixState: f.fixState, fixedVersions: f.fixedVersions })));
    }
    return out;
  }
  const only = (seen: Map<string, Seen[]>, name: string): Seen => {
    const list = seen.get(name);
    expect(list, name).toHaveLength(1);
    return list![0]!;
  };

  it('Debian：DSA 按源码包 nginx 匹配二进制包，trivy 的 end_of_life 与 postponed（延期修复）', async () => {
    const wheezy = await analyse({
      'etc/os-release': 'ID=debian\nVERSION_ID="7"\n',
      'var/lib/dpkg/status': dpkg(stanza('nginx-full', '1.2.1-2.2+wheezy2', 'nginx'), stanza('nginx-common', '1.2.1-2.2+wheezy3', 'nginx')),
    });
    expect(only(wheezy, 'nginx-full')).toEqual({ ids: ['CVE-2014-3616', 'DSA-3029-1'], fixState: 'fixed', fixedVersions: ['1.2.1-2.2+wheezy3'] });
    // The fixed version itself is not affected (Debian version ordering).
    expect(wheezy.get('nginx-common')).toEqual([]);

    const stretch = await analyse({
      'etc/os-release': 'ID=debian\nVERSION_ID="9"\n',
      'var/lib/dpkg/status': dpkg(stanza('bash', '4.4-5'), stanza('libssl1.1', '1.1.0k-1~deb9u1', 'openssl')),
    });
    expect(only(stretch, 'bash')).toMatchObject({ ids: ['CVE-2019-18276'], fixState: 'end_of_life', fixedVersions: [] });
    const openssl = stretch.get('libssl1.1')!.map((f) => [f.ids[0], f.fixState, f.fixedVersions]).sort();
    expect(openssl).toEqual([
      ['CVE-2019-1551', 'fix_deferred', []],
      ['CVE-2019-1563', 'fixed', ['1.1.0l-1~deb9u1']],
    ]);
  });

  it('Ubuntu：UBUNTU-CVE 的源码包 linux（Pro 14.04，无修复）按 upstream 记为 CVE；trivy 的 18.04 条目', async () => {
    const trusty = await analyse({
      'etc/os-release': 'ID=ubuntu\nVERSION_ID="14.04"\n',
      'var/lib/dpkg/status': dpkg(stanza('linux-image-3.13.0-206-generic', '3.13.0-206.257', 'linux')),
    });
    expect(only(trusty, 'linux-image-3.13.0-206-generic')).toEqual({ ids: ['CVE-2025-38094', 'UBUNTU-CVE-2025-38094'], fixState: 'affected', fixedVersions: [] });
    // Ubuntu's priority (medium) rates it when no CVSS is given.
    const record = (await loadAdvisories(kb.db)).find((a) => a.id === 'UBUNTU-CVE-2025-38094')!;
    expect(record.level).toBe(4);

    const bionic = await analyse({
      'etc/os-release': 'ID=ubuntu\nVERSION_ID="18.04"\n',
      'var/lib/dpkg/status': dpkg(stanza('bash', '4.4.18-2ubuntu1'), stanza('e2fsprogs', '1.44.1-1ubuntu1.1'), stanza('libext2fs2', '1.44.1-1ubuntu1.2', 'e2fsprogs')),
    });
    expect(only(bionic, 'bash')).toMatchObject({ ids: ['CVE-2019-18276'], fixState: 'affected', fixedVersions: [] });
    // trivy files every bucket's entry under the CVE, Debian's DSA among its other ids.
    expect(only(bionic, 'e2fsprogs')).toMatchObject({ ids: ['CVE-2019-5094', 'DSA-4535-1'], fixState: 'fixed', fixedVersions: ['1.44.1-1ubuntu1.2'] });
    expect(bionic.get('libext2fs2')).toEqual([]);
  });

  it('Alpine：真实的 apk 数据库（3.18）中 zlib 不受 ALPINE-CVE-2023-45853 影响；3.10 的 openssl 按 origin 匹配', async () => {
    const edge = await analyse({ 'etc/alpine-release': '3.18.0\n', 'lib/apk/db/installed': readFileSync(APK_INSTALLED) });
    expect(edge.get('zlib')).toEqual([]);
    const pk = await kb.db.selectFrom('kb_advisories').select('id').where('advisory_id', '=', 'ALPINE-CVE-2023-45853').executeTakeFirstOrThrow();
    const statements = (await affectedOf(kb.db, pk.id)).map((p) => `${p.distribution} ${p.name} ${p.fixState} ${p.fixed.join(',')}`);
    expect(statements).toContain('alpine:3.18 zlib not_affected ');
    expect(statements).toHaveLength(8);

    const alpine310 = await analyse({
      'etc/alpine-release': '3.10.2\n',
      'lib/apk/db/installed': apk(['libcrypto1.1', '1.1.1c-r0', 'openssl'], ['musl', '1.1.20-r4', 'musl'], ['musl-utils', '1.1.20-r5', 'musl']),
    });
    expect(alpine310.get('libcrypto1.1')!.map((f) => [f.ids[0], f.fixedVersions[0]]).sort()).toEqual([
      ['CVE-2019-1549', '1.1.1d-r0'],
      ['CVE-2019-1551', '1.1.1d-r2'],
    ]);
    expect(only(alpine310, 'musl')).toMatchObject({ ids: ['CVE-2019-14697'], fixState: 'fixed', fixedVersions: ['1.1.20-r5'] });
    expect(alpine310.get('musl-utils')).toEqual([]);
  });

  it('AlmaLinux：ALSA（OSV）按 epoch 与 el9 版本顺序；Alma 8 来自 trivy', async () => {
    const alma9 = await analyse({
      'etc/os-release': 'ID="almalinux"\nVERSION_ID="9.1"\n',
      'var/lib/rpm/rpmdb.sqlite': await sqliteOf(rpms(
        { name: 'openssl-devel', version: '3.0.1', release: '43.el9_0', epoch: 1, sourceRpm: 'openssl-3.0.1-43.el9_0.src.rpm', vendor: 'AlmaLinux' },
        { name: 'openssl-perl', version: '3.0.1', release: '47.el9_1', epoch: 1, sourceRpm: 'openssl-3.0.1-47.el9_1.src.rpm', vendor: 'AlmaLinux' },
      )),
    });
    const devel = only(alma9, 'openssl-devel');
    expect(devel).toMatchObject({ fixState: 'fixed', fixedVersions: ['1:3.0.1-47.el9_1'] });
    expect(devel.ids[0]).toBe('CVE-2022-4203');
    expect(devel.ids).toEqual(expect.arrayContaining(['ALSA-2023:0946', 'CVE-2023-0286']));
    expect(alma9.get('openssl-perl')).toEqual([]);

    const alma8 = await analyse({
      'etc/os-release': 'ID="almalinux"\nVERSION_ID="8.3"\n',
      'var/lib/rpm/Packages': buildBdb(rpms({ name: 'openssl-libs', version: '1.1.1g', release: '14.el8', epoch: 1, sourceRpm: 'openssl-1.1.1g-14.el8.src.rpm' })),
    });
    expect(alma8.get('openssl-libs')!.map((f) => [f.ids[0], f.fixedVersions[0]]).sort()).toEqual([
      ['CVE-2021-3450', '1:1.1.1g-15.el8_3'],
      ['CVE-2021-3712', '1:1.1.1k-5.el8_5'],
    ]);
  });

  it('Rocky 与 Red Hat：RLSA 编号并入同一漏洞；红帽不修复（will_not_fix）与已停止支持（end_of_life）', async () => {
    const rocky = await analyse({
      'etc/os-release': 'ID="rocky"\nVERSION_ID="8.4"\n',
      'var/lib/rpm/Packages': buildBdb(rpms({ name: 'openssl-libs', version: '1.1.1k', release: '4.el8', epoch: 1, sourceRpm: 'openssl-1.1.1k-4.el8.src.rpm' })),
    });
    expect(only(rocky, 'openssl-libs')).toEqual({ ids: ['CVE-2021-3712', 'RLSA-2021:4647'], fixState: 'fixed', fixedVersions: ['1:1.1.1k-5.el8_5'] });

    const rhel7 = await analyse({
      'etc/os-release': 'ID="rhel"\nVERSION_ID="7.9"\n',
      'var/lib/rpm/Packages': buildBdb(rpms(
        { name: 'bash', version: '4.2.46', release: '34.el7', sourceRpm: 'bash-4.2.46-34.el7.src.rpm' },
        { name: 'openssl-libs', version: '1.0.2k', release: '16.el7', epoch: 1, sourceRpm: 'openssl-1.0.2k-16.el7.src.rpm' },
      )),
    });
    expect(only(rhel7, 'bash')).toEqual({ ids: ['CVE-2019-18276'], fixState: 'will_not_fix', fixedVersions: [] });
    const openssl = only(rhel7, 'openssl-libs');
    expect(openssl).toMatchObject({ fixState: 'fixed', fixedVersions: ['1:1.0.2k-19.el7'] });
    expect(openssl.ids).toEqual(expect.arrayContaining(['CVE-2019-1559', 'RHSA-2019:2304']));

    const rhel6 = await analyse({
      'etc/redhat-release': 'Red Hat Enterprise Linux Server release 6.10 (Santiago)\n',
      'var/lib/rpm/Packages': buildBdb(rpms({ name: 'glibc', version: '2.12', release: '1.212.el6', sourceRpm: 'glibc-2.12-1.212.el6.src.rpm' })),
    });
    expect(only(rhel6, 'glibc')).toEqual({ ids: ['CVE-2020-29573'], fixState: 'end_of_life', fixedVersions: [] });
  });

  it('SUSE 与 openSUSE：服务包 15-SP3 即 os-release 的 15.3', async () => {
    const sles = await analyse({
      'etc/os-release': 'ID="sles"\nVERSION_ID="15.3"\n',
      'usr/lib/sysimage/rpm/Packages.db': buildNdb(rpms({ name: 'libopenssl1_1', version: '1.1.1d', release: '150200.11.47.1', sourceRpm: 'openssl-1_1-1.1.1d-150200.11.47.1.src.rpm' })),
    });
    expect(only(sles, 'libopenssl1_1')).toEqual({ ids: ['SUSE-SU-2022:2251-1'], fixState: 'fixed', fixedVersions: ['1.1.1d-150200.11.48.1'] });

    const leap = await analyse({
      'etc/os-release': 'ID="opensuse-leap"\nVERSION_ID="15.1"\n',
      'usr/lib/sysimage/rpm/Packages.db': buildNdb(rpms({ name: 'libopenssl1_1', version: '1.1.0i', release: 'lp151.8.5.1', sourceRpm: 'openssl-1_1-1.1.0i-lp151.8.5.1.src.rpm' })),
    });
    expect(only(leap, 'libopenssl1_1')).toEqual({ ids: ['openSUSE-SU-2020:0062-1'], fixState: 'fixed', fixedVersions: ['1.1.0i-lp151.8.6.1'] });
  });

  it('a knowledge base imported before fix states were kept gets them from a re-import of the same data, once', async () => {
    // What migration 0016 leaves of an earlier import: distribution entries without a state.
    await kb.db.updateTable('kb_affected').set({ fix_state: '' }).where('distribution', 'is not', null).execute();
    const again = await importKnowledge(kb.db, TRIVY_DB);
    expect(again.updated).toBeGreaterThan(0);
    const osv = await importKnowledge(kb.db, OSV_FIXTURES);
    expect(osv).toMatchObject({ updated: 4, unchanged: 0 });
    const states = await kb.db.selectFrom('kb_affected').select('fix_state').where('distribution', 'is not', null).execute();
    expect(states.filter((r) => r.fix_state === '')).toEqual([]);
    const bash = (await loadAdvisories(kb.db)).find((a) => a.id === 'CVE-2019-18276')!;
    expect(bash.affected.map((p) => `${p.distribution} ${p.fixState}`)).toEqual(expect.arrayContaining(['redhat:7 will_not_fix', 'debian:9 end_of_life']));
    const third = await importKnowledge(kb.db, TRIVY_DB);
    expect([third.imported, third.updated]).toEqual([0, 0]);
  });
});
