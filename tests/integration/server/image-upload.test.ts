// A container image uploaded as a file (source type 12, 本地镜像文件), on both databases: its layers
// are applied (a package removed by a later layer's dpkg status, a file deleted by a whiteout are
// gone), each component is attributed to the layer it first appeared in — read from every version
// of the dpkg database the layers left, not the layer that last rewrote it —, the run records the
// image (platform, base system, layers with their step and component counts), the component list
// filters by layer, and an upload that is not an image is refused at launch.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOciLayout } from '../../support/registry.ts';
import { adminClient, databases, startServer, type TestClient, type TestServer } from './harness.ts';
import { uploadFile, waitForRun } from './sample-app.ts';

const pkg = (name: string, version: string, extra = '') => `Package: ${name}\nStatus: install ok installed\nArchitecture: amd64\nVersion: ${version}\n${extra}`;
const status = (...stanzas: string[]) => stanzas.join('\n');

const OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n';
const METADATA = 'Metadata-Version: 2.1\nName: requests\nVersion: 2.31.0\nLicense: Apache 2.0\n';

/** Base system; then curl and Python's requests; then an app that purges `less` and deletes a file. */
const LAYERS: Record<string, string>[] = [
  {
    'etc/os-release': OS_RELEASE,
    'var/lib/dpkg/status': status(pkg('base-files', '12.4+deb12u5'), pkg('less', '590-2.1~deb12u2')),
    'etc/motd': 'welcome\n',
  },
  {
    'var/lib/dpkg/status': status(pkg('base-files', '12.4+deb12u5'), pkg('less', '590-2.1~deb12u2'), pkg('curl', '7.88.1-10+deb12u5')),
    'usr/lib/python3/dist-packages/requests-2.31.0.dist-info/METADATA': METADATA,
  },
  {
    'var/lib/dpkg/status': status(pkg('base-files', '12.4+deb12u5'), pkg('curl', '7.88.1-10+deb12u5')),
    'etc/.wh.motd': '',
    'app/node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', version: '1.3.0', license: 'WTFPL' }),
  },
];

describe.each(databases)('a container image uploaded and analysed on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let work: string;
  let subjectId: number;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cairn-image-upload-'));
    server = await startServer(database, { scanConcurrency: 1 });
    admin = await adminClient(server);
    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '镜像应用', description: '', importance: 3 } });
    subjectId = created.body.data.id as number;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('lists the packages of the final filesystem, each with the layer that brought it, and the image on the run', async () => {
    const layout = path.join(work, 'layout');
    const built = await writeOciLayout(layout, 'shop/api:1.4', [{ architecture: 'amd64', layers: LAYERS }]);
    const tarball = path.join(work, 'api-image.tar');
    execFileSync('tar', ['-cf', tarball, '-C', layout, '.']);

    const uploadId = await uploadFile(admin, tarball);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'api-image', getCodeType: 12, uploadId } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    const run = await waitForRun(admin, projectId);
    expect(run.status, run.message).toBe(2);

    const list = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=50`, body: {} });
    expect(list.body.code, list.body.message).toBe(1);
    type Row = { id: number; name: string; version: string; ecosystem: string; purl: string; layer: number | null };
    const rows = new Map((list.body.data.content as Row[]).map((r) => [r.name, r]));
    // `less` was purged by the third layer: not in the image any more.
    expect([...rows.keys()].sort()).toEqual(['base-files', 'curl', 'left-pad', 'requests']);
    expect(rows.get('curl')!.purl).toBe('pkg:deb/debian/curl@7.88.1-10+deb12u5?arch=amd64&distro=debian-12');
    // base-files is in every version of the status file: the first layer, though the last rewrote the file.
    expect(Object.fromEntries([...rows].map(([name, r]) => [name, r.layer]))).toEqual({ 'base-files': 0, curl: 1, requests: 1, 'left-pad': 2 });

    const view = await admin.request({ method: 'GET', url: `/api/project-task-view/${projectId}` });
    expect(view.body.code, view.body.message).toBe(1);
    const image = view.body.data.run.image;
    expect(image).toMatchObject({
      reference: 'shop/api:1.4',
      manifestDigest: built.platforms['linux/amd64']!.manifest,
      platform: 'linux/amd64',
      os: { id: 'debian', versionId: '12', prettyName: 'Debian GNU/Linux 12 (bookworm)' },
    });
    expect(image.layers.map((l: { digest: string; components: number; createdBy: string }) => [l.digest, l.components, l.createdBy])).toEqual(
      built.platforms['linux/amd64']!.layers.map((digest, i) => [digest, [1, 2, 1][i], `/bin/sh -c #(nop) layer ${i + 1}`]),
    );
    expect(image.size).toBeGreaterThan(0);

    // The layer filter, as the component list and the 镜像层 tree use it.
    const second = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=50`, body: { layers: [1] } });
    expect((second.body.data.content as Row[]).map((r) => r.name).sort()).toEqual(['curl', 'requests']);
    expect(second.body.data.total).toBe(2);

    // The deleted file is not in the task's file tree; the others are.
    const files = await admin.request({ method: 'POST', url: '/api/resultTree/search/' + projectId, body: { keyword: 'motd', kind: 'file' } });
    expect(files.body.code, files.body.message).toBe(1);
    expect(files.body.data.content).toEqual([]);
  });

  it('refuses at launch an upload that is not an image', async () => {
    const file = path.join(work, 'not-an-image.tar');
    const src = path.join(work, 'plain');
    execFileSync('mkdir', ['-p', src]);
    writeFileSync(path.join(src, 'readme.txt'), 'just files\n');
    execFileSync('tar', ['-cf', file, '-C', src, '.']);
    const uploadId = await uploadFile(admin, file);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'not-an-image', getCodeType: 12, uploadId } });
    expect(launched.body.code).not.toBe(1);
    expect(launched.body.message).toContain('不是容器镜像');
  });
});
