// A root filesystem uploaded as a source archive, on both databases: its dpkg packages are the
// run's components with Debian purls, a Debian advisory of the same release (OSV `Debian:12`)
// is found in the package it names and only at the versions it affects, one of another release
// is not, and the run's knowledge-base coverage counts the deb ecosystem as covered.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledge } from '../../../server/kb/import.ts';
import { adminClient, databases, startServer, type TestClient, type TestServer } from './harness.ts';
import { uploadFile, waitForRun } from './sample-app.ts';

const hasTar = (() => {
  try {
    execFileSync('tar', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const STATUS = [
  'Package: git\nStatus: install ok installed\nArchitecture: amd64\nVersion: 1:2.39.2-1.1\nMaintainer: Jonathan Nieder <jrnieder@gmail.com>\nDepends: libc6 (>= 2.34), git-man (>> 1:2.39.2)\n',
  'Package: git-man\nStatus: install ok installed\nArchitecture: all\nSource: git\nVersion: 1:2.39.2-1.1\n',
  'Package: libc6\nStatus: install ok installed\nArchitecture: amd64\nSource: glibc\nVersion: 2.36-9+deb12u4\n',
  'Package: old-removed\nStatus: deinstall ok config-files\nArchitecture: amd64\nVersion: 1.0\n',
].join('\n');

const osv = (id: string, ecosystem: string, name: string, fixed: string) => ({
  schema_version: '1.6.0', id, modified: new Date().toISOString(), published: '2024-01-01T00:00:00Z', summary: `${name} test advisory`,
  affected: [{ package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }] }],
});

describe.skipIf(!hasTar).each(databases)('a Debian root filesystem analysed on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cairn-ospkgs-'));
    server = await startServer(database, { scanConcurrency: 1 });
    admin = await adminClient(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('reports the OS packages with distro purls, Debian advisories of the release, and deb as covered', async () => {
    const advisories = path.join(work, 'advisories');
    mkdirSync(advisories);
    writeFileSync(path.join(advisories, 'DSA-0001-1.json'), JSON.stringify(osv('DSA-0001-1', 'Debian:12', 'git', '1:2.39.5-0+deb12u1')));
    writeFileSync(path.join(advisories, 'DSA-0002-1.json'), JSON.stringify(osv('DSA-0002-1', 'Debian:11', 'libc6', '2.99-1')));
    writeFileSync(path.join(advisories, 'DSA-0003-1.json'), JSON.stringify(osv('DSA-0003-1', 'Debian:12', 'libc6', '2.36-9+deb12u3')));
    await importKnowledge(server.app.cairn.db, advisories);

    const rootfs = path.join(work, 'rootfs');
    mkdirSync(path.join(rootfs, 'var/lib/dpkg'), { recursive: true });
    mkdirSync(path.join(rootfs, 'etc'), { recursive: true });
    writeFileSync(path.join(rootfs, 'var/lib/dpkg/status'), STATUS);
    writeFileSync(path.join(rootfs, 'etc/os-release'), 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n');
    const tarball = path.join(work, 'rootfs.tar');
    execFileSync('tar', ['-cf', tarball, '-C', rootfs, '.']);

    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '系统软件包', description: '', importance: 3 } });
    const uploadId = await uploadFile(admin, tarball);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId: created.body.data.id, projectName: 'debian-rootfs', getCodeType: 0, uploadId } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    expect((await waitForRun(admin, projectId)).status).toBe(2);

    const list = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=50`, body: {} });
    expect(list.body.code, list.body.message).toBe(1);
    type Row = { name: string; version: string; purl: string; ecosystem: string; vulCount: number };
    const rows = new Map((list.body.data.content as Row[]).map((r) => [r.name, r]));
    expect([...rows.keys()].sort()).toEqual(['git', 'git-man', 'libc6']);
    expect(rows.get('git')).toMatchObject({ ecosystem: 'deb', version: '1:2.39.2-1.1', purl: 'pkg:deb/debian/git@2.39.2-1.1?arch=amd64&distro=debian-12&epoch=1', vulCount: 1 });
    expect(rows.get('git-man')!.purl).toBe('pkg:deb/debian/git-man@2.39.2-1.1?arch=all&distro=debian-12&epoch=1&upstream=git');
    // The Debian 11 advisory is not this release's; the Debian 12 one is fixed in an earlier revision.
    expect(rows.get('libc6')).toMatchObject({ purl: 'pkg:deb/debian/libc6@2.36-9+deb12u4?arch=amd64&distro=debian-12&upstream=glibc', vulCount: 0 });

    const view = await admin.request({ method: 'GET', url: `/api/project-task-view/${projectId}` });
    expect(view.body.data.run.coverage).toMatchObject({ complete: true, uncovered: [] });
  }, 120_000);
});
