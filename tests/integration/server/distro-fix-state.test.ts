// A Red Hat Enterprise Linux 7 root filesystem analysed by the platform against trivy's database
// (issue 16 item 6), on both databases: Red Hat will not fix bash's CVE-2019-18276, so its finding
// has no fixed-in version and says why — in the task's vulnerability list, the component detail,
// the knowledge-base detail (per distribution release: Red Hat 7 不修复, Debian 9 已停止支持), the
// report's 修复版本 column and the CycloneDX analysis — while openssl-libs has a fixed version.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importKnowledge } from '../../../server/kb/import.ts';
import { buildReportModel } from '../../../server/reports/build-model.ts';
import { buildBom, serializeBom } from '../../../server/reports/cyclonedx.ts';
import { TABLE_SECTIONS } from '../../../server/reports/sections.ts';
import type { ReportVulnerability } from '../../../server/reports/model.ts';
import { buildBdb, packageHeader } from '../../support/rpmdb.ts';
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

interface Row { id: number; identify: string; cve: string | null; componentName: string; componentId: number; fixedVersions: string[]; fixState: string; upgrade: { version: string | null; reason: string } }

describe.skipIf(!hasTar).each(databases)('发行版不修复的漏洞（$name）', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let work: string;

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'cairn-fixstate-'));
    server = await startServer(database, { scanConcurrency: 1 });
    admin = await adminClient(server);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows 发行版不修复 instead of an empty fixed-in version, everywhere the fixed-in version appears', async () => {
    const summary = await importKnowledge(server.app.cairn.db, '../shared/corpora/trivy/db');
    expect(summary.failed).toBe(0);

    const rootfs = path.join(work, 'rootfs');
    mkdirSync(path.join(rootfs, 'var/lib/rpm'), { recursive: true });
    mkdirSync(path.join(rootfs, 'etc'), { recursive: true });
    writeFileSync(path.join(rootfs, 'etc/os-release'), 'NAME="Red Hat Enterprise Linux Server"\nID="rhel"\nVERSION_ID="7.9"\n');
    writeFileSync(path.join(rootfs, 'var/lib/rpm/Packages'), buildBdb([
      packageHeader({ name: 'bash', version: '4.2.46', release: '34.el7', sourceRpm: 'bash-4.2.46-34.el7.src.rpm', vendor: 'Red Hat, Inc.' }),
      packageHeader({ name: 'openssl-libs', version: '1.0.2k', release: '16.el7', epoch: 1, sourceRpm: 'openssl-1.0.2k-16.el7.src.rpm', vendor: 'Red Hat, Inc.' }),
    ]));
    const tarball = path.join(work, 'rootfs.tar');
    execFileSync('tar', ['-cf', tarball, '-C', rootfs, '.']);

    const created = await admin.request({ method: 'POST', url: '/api/subject/create', body: { name: '红帽主机', description: '', importance: 3 } });
    const uploadId = await uploadFile(admin, tarball);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId: created.body.data.id, projectName: 'rhel7-rootfs', getCodeType: 0, uploadId } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    expect((await waitForRun(admin, projectId)).status).toBe(2);

    // The task's vulnerability list, every level.
    const rows: Row[] = [];
    for (const level of [1, 2, 4, 8, 16]) {
      const reply = await admin.request({ method: 'GET', url: `/api/vulnerability/list/statistic/${projectId}?size=100&level=${level}` });
      expect(reply.body.code, reply.body.message).toBe(1);
      rows.push(...(reply.body.data.content as Row[]));
    }
    const bash = rows.find((r) => r.componentName === 'bash' && r.identify === 'CVE-2019-18276')!;
    expect(bash).toMatchObject({ fixedVersions: [], fixState: 'will_not_fix', upgrade: { version: null } });
    expect(bash.upgrade.reason).toContain('发行版声明不修复');
    const openssl = rows.find((r) => r.componentName === 'openssl-libs')!;
    expect(openssl).toMatchObject({ fixState: 'fixed', fixedVersions: ['1:1.0.2k-19.el7'], upgrade: { version: '1:1.0.2k-19.el7' } });

    // The component's vulnerabilities.
    const component = await admin.request({ method: 'GET', url: `/api/component/${bash.componentId}` });
    expect(component.body.code, component.body.message).toBe(1);
    expect(component.body.data.vulnerabilities.map((v: Row) => [v.identify, v.fixState])).toEqual([['CVE-2019-18276', 'will_not_fix']]);

    // The knowledge base's detail: each distribution release with its statement.
    const pk = await server.app.cairn.db.selectFrom('kb_advisories').select('id').where('advisory_id', '=', 'CVE-2019-18276').executeTakeFirstOrThrow();
    const detail = await admin.request({ method: 'GET', url: `/api/vulnerability/${pk.id}` });
    expect(detail.body.code, detail.body.message).toBe(1);
    const statements = (detail.body.data.affected as Array<{ distribution: string; name: string; fixState: string }>).map((p) => `${p.distribution} ${p.name} ${p.fixState}`);
    expect(statements).toEqual(expect.arrayContaining(['redhat:7 bash will_not_fix', 'debian:9 bash end_of_life']));

    // The report: 修复版本 reads 发行版不修复; CycloneDX says the vendor will not fix it.
    const runId = (await server.app.cairn.db.selectFrom('runs').select('id').where('project_id', '=', projectId).executeTakeFirstOrThrow()).id;
    const model = await buildReportModel(server.app.cairn.db, { kind: 'task', runIds: [runId], author: 'admin', tool: { name: 'Cairn', version: '0' } });
    const reported = model.vulnerabilities.find((v) => v.id === 'CVE-2019-18276')!;
    expect(reported).toMatchObject({ fixState: 'will_not_fix', fixedVersions: [] });
    const table = TABLE_SECTIONS.find((s) => s.columns.some((c) => c.header === '修复版本'))!;
    const fixedColumn = table.columns.find((c) => c.header === '修复版本')! as { value: (v: ReportVulnerability) => unknown };
    expect(fixedColumn.value(reported)).toBe('发行版不修复');
    expect(fixedColumn.value(model.vulnerabilities.find((v) => v.componentName === 'openssl-libs')!)).toBe('1:1.0.2k-19.el7');
    // An analyst who marked it 受影响 (VEX 2) exports the vendor's response with it.
    const bom = JSON.parse(serializeBom(buildBom({ ...model, vulnerabilities: model.vulnerabilities.map((v) => (v === reported ? { ...v, vex: 2 } : v)) }))) as {
      vulnerabilities: Array<{ id: string; analysis?: { state: string; response?: string[] }; properties?: Array<{ name: string; value: string }>; recommendation?: string }>;
    };
    const exported = bom.vulnerabilities.find((v) => v.id === 'CVE-2019-18276')!;
    expect(exported.analysis).toMatchObject({ state: 'exploitable', response: ['will_not_fix'] });
    expect(exported.properties).toEqual(expect.arrayContaining([{ name: 'cairn:fixState', value: '发行版不修复' }]));
    expect(exported.recommendation).toContain('发行版声明不修复');
  }, 120_000);
});
