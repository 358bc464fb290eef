// A multi-platform image uploaded as a file (source type 12, 本地镜像文件), on both databases: an
// OCI layout tar whose index holds linux/amd64 and linux/arm64 images with different packages.
// The form reads the platforms the upload holds (imageUploadPlatforms); the project stores the
// platform chosen and its run analyses that platform's layers; a platform the archive lacks is
// refused at launch naming those it has (nothing created), and a run that meets it anyway (the
// stored choice no longer offered) ends with the engine's message naming them.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOciLayout } from '../../support/registry.ts';
import { adminClient, databases, signIn, startServer, type TestClient, type TestServer } from './harness.ts';
import { uploadFile, waitForRun } from './sample-app.ts';

const OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n';
const pkg = (name: string, version: string, arch: string) => `Package: ${name}\nStatus: install ok installed\nArchitecture: ${arch}\nVersion: ${version}\n`;
const imageOf = (arch: string, extra: string) => ({
  architecture: arch,
  layers: [
    { 'etc/os-release': OS_RELEASE, 'var/lib/dpkg/status': [pkg('base-files', '12.4+deb12u5', arch), pkg(extra, '1.0-1', arch)].join('\n') },
  ],
});

describe.each(databases)('a multi-platform image upload on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let work: string;
  let subjectId: number;
  let uploadId: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cairn-image-platform-'));
    server = await startServer(database, { scanConcurrency: 1 });
    admin = await adminClient(server);
    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '多平台镜像', description: '', importance: 3 } });
    subjectId = created.body.data.id as number;
    const layout = path.join(work, 'layout');
    await writeOciLayout(layout, 'shop/multi:2.0', [imageOf('amd64', 'only-on-amd64'), imageOf('arm64', 'only-on-arm64')]);
    const tarball = path.join(work, 'multi.tar');
    execFileSync('tar', ['-cf', tarball, '-C', layout, '.']);
    uploadId = await uploadFile(admin, tarball);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const names = async (projectId: number) => {
    const list = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=50`, body: {} });
    expect(list.body.code, list.body.message).toBe(1);
    return (list.body.data.content as Array<{ name: string; purl: string }>).map((r) => r.name).sort();
  };

  it('answers the platforms the uploaded archive holds, and the one analysed by default', async () => {
    const found = await admin.request({ method: 'POST', url: '/api/analysis/imageUploadPlatforms', body: { getCodeType: 12, uploadId } });
    expect(found.body.code, found.body.message).toBe(1);
    expect(found.body.data).toEqual({ platforms: ['linux/amd64', 'linux/arm64'], platform: 'linux/amd64' });
    expect(found.body.message).toContain('linux/arm64');
    const wrongType = await admin.request({ method: 'POST', url: '/api/analysis/imageUploadPlatforms', body: { getCodeType: 0, uploadId } });
    expect(wrongType.body.code).not.toBe(1);

    // A gzip-compressed archive: decompressed under the platform's work folder for the reading, and removed.
    execFileSync('gzip', ['-k', path.join(work, 'multi.tar')]);
    const gzId = await uploadFile(admin, path.join(work, 'multi.tar.gz'));
    const gz = await admin.request({ method: 'POST', url: '/api/analysis/imageUploadPlatforms', body: { getCodeType: 12, uploadId: gzId } });
    expect(gz.body.code, gz.body.message).toBe(1);
    expect(gz.body.data.platforms).toEqual(['linux/amd64', 'linux/arm64']);
    // The work folder empties (the upload's background read-through, started when it completed,
    // may still be running beside this call: it removes its own folder when done).
    const workDir = path.join(server.app.cairn.dataDir, 'work');
    const left = () => (existsSync(workDir) ? readdirSync(workDir) : []);
    for (let i = 0; i < 300 && left().length; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(left()).toEqual([]);

    // Not an image: the reason.
    const plain = path.join(work, 'plain.txt');
    writeFileSync(plain, 'not an image\n');
    const plainId = await uploadFile(admin, plain);
    const refused = await admin.request({ method: 'POST', url: '/api/analysis/imageUploadPlatforms', body: { getCodeType: 12, uploadId: plainId } });
    expect(refused.body.code).not.toBe(1);
    expect(refused.body.message).toContain('不是容器镜像');

    // Another user's upload is not read for them.
    const { client: other } = await signIn(server, 'imgmisc-other', 'Other@12345');
    const foreign = await other.request({ method: 'POST', url: '/api/analysis/imageUploadPlatforms', body: { getCodeType: 12, uploadId } });
    expect(foreign.body.code).not.toBe(1);
  });

  it('analyses the platform chosen, and stores it with the project', async () => {
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'multi-arm64', getCodeType: 12, uploadId, imagePlatform: 'linux/arm64' } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    const run = await waitForRun(admin, projectId);
    expect(run.status, run.message).toBe(2);
    expect(await names(projectId)).toEqual(['base-files', 'only-on-arm64']);
    const view = await admin.request({ method: 'GET', url: `/api/project-task-view/${projectId}` });
    expect(view.body.data.run.image.platform).toBe('linux/arm64');
    const form = await admin.request({ method: 'GET', url: `/api/project/${projectId}` });
    expect(form.body.data.source.imagePlatform).toBe('linux/arm64');

    // Without a choice: linux/amd64.
    const plain = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'multi-default', getCodeType: 12, uploadId } });
    expect(plain.body.code, plain.body.message).toBe(1);
    const plainRun = await waitForRun(admin, plain.body.data.projectId as number);
    expect(plainRun.status, plainRun.message).toBe(2);
    expect(await names(plain.body.data.projectId as number)).toEqual(['base-files', 'only-on-amd64']);
  });

  it('refuses at launch a platform the archive lacks, naming those it has, and a malformed one when saving', async () => {
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'multi-s390x', getCodeType: 12, uploadId, imagePlatform: 'linux/s390x' } });
    expect(launched.body.code).not.toBe(1);
    expect(launched.body.message).toContain('linux/s390x');
    expect(launched.body.message).toContain('linux/amd64、linux/arm64');
    const list = await admin.request({ method: 'POST', url: '/api/project/list', body: { subjectId } });
    expect(JSON.stringify(list.body.data)).not.toContain('multi-s390x');

    const malformed = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'multi-bad', getCodeType: 12, uploadId, imagePlatform: 'arm 64', launch: false } });
    expect(malformed.body.code).not.toBe(1);
  });

  it('ends the run naming the platforms there are when the stored platform is not in the archive', async () => {
    // Saved without launching (the upload is read at launch only), then launched through the queue's own path.
    const saved = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'multi-riscv', getCodeType: 12, uploadId, imagePlatform: 'linux/riscv64', launch: false } });
    expect(saved.body.code, saved.body.message).toBe(1);
    const projectId = saved.body.data.projectId as number;
    const relaunch = await admin.request({ method: 'PUT', url: '/api/analysis', body: { taskId: projectId } });
    expect(relaunch.body.code).not.toBe(1);
    expect(relaunch.body.message).toContain('linux/amd64、linux/arm64');
    // The run itself (as a run queued before the check existed, or by a batch that skipped it) fails the same way.
    const { queueRun } = await import('../../../server/db/repositories/runs.ts');
    const queued = await queueRun(server.app.cairn.db, { projectId, analysisModes: '1,4,7', trigger: 'manual', userId: 1, outboundLicense: null });
    expect(queued).toBeTruthy();
    server.app.cairn.runs.wake();
    const run = await waitForRun(admin, projectId);
    expect(run.status).toBe(3);
    expect(run.message).toContain('linux/riscv64');
    expect(run.message).toContain('linux/amd64、linux/arm64');
  });
});
