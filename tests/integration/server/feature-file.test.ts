// Feature-file equivalence through the platform (issue 16 item 5), on both databases: the same
// project (Go, PyPI, npm with node_modules, Cargo; a licence file; source files) launched as 特征文件
// twice, once as a zip of its folder and once as the feature file `cairn feature` writes, with the
// corpus's Go and PyPI advisories loaded, gives the same component list (versions, licences,
// risk, vulnerability counts), the same vulnerability findings, the same licences and the same
// file tree with sizes; a feature file whose content does not match its manifest is refused at launch.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { licenseText, writeFeatureFile } from '../../../server/engine/index.ts';
import { databases, type TestClient, type TestServer } from './harness.ts';
import { CORPORA, startSampleServer, uploadFile, waitForRun } from './sample-app.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-feature-api-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const folder = path.join(work, 'portal');
const treeZip = path.join(work, 'portal.zip');
const featureZip = path.join(work, 'portal.cairn-feature.zip');

beforeAll(async () => {
  for (const eco of ['gomod', 'pip', 'npm', 'cargo']) cpSync(path.join(CORPORA, 'trivy/repo', eco), path.join(folder, eco), { recursive: true });
  writeFileSync(path.join(folder, 'LICENSE'), licenseText('Apache-2.0')!);
  mkdirSync(path.join(folder, 'cmd'), { recursive: true });
  writeFileSync(path.join(folder, 'cmd/main.go'), '// Copyright 2025 Portal Team\n// SPDX-License-Identifier: Apache-2.0\npackage main\n\nfunc main() { println("internal") }\n');
  execFileSync('zip', ['-qr', treeZip, 'portal'], { cwd: work });
  await writeFeatureFile(folder, featureZip, { tool: { name: 'Cairn', version: 'test' } });
});

describe.each(databases)('特征文件与源码树分析结果一致 on $name', (database) => {
  let server: TestServer;
  let admin: TestClient;
  let subjectId: number;

  beforeAll(async () => {
    ({ server, admin, subjectId } = await startSampleServer(database, '特征文件对照'));
  }, 180_000);
  afterAll(async () => { await server?.close(); });

  const launch = async (file: string, projectName: string) => {
    const uploadId = await uploadFile(admin, file);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName, getCodeType: 9, uploadId } });
    expect(launched.body.code, launched.body.message).toBe(1);
    const projectId = launched.body.data.projectId as number;
    expect((await waitForRun(admin, projectId)).status).toBe(2);
    return projectId;
  };

  it('gives the same components, vulnerabilities, licences and file tree', async () => {
    const tree = await launch(treeZip, 'portal-tree');
    const feature = await launch(featureZip, 'portal-feature');

    type Row = Record<string, unknown> & { name: string; version: string };
    const components = async (projectId: number) => {
      const reply = await admin.request({ method: 'POST', url: `/api/component/list/${projectId}?size=500`, body: {} });
      expect(reply.body.code, reply.body.message).toBe(1);
      return (reply.body.data.content as Row[])
        .map((r) => JSON.stringify([r.purl, r.name, r.version, r.ecosystem, r.scope, r.direct, r.licenseExpression, r.licenseLevel, r.riskLevel, r.vulCount]))
        .sort();
    };
    const treeComponents = await components(tree);
    expect(treeComponents.length).toBeGreaterThan(40);
    expect(await components(feature)).toEqual(treeComponents);

    const findings = async (projectId: number) => {
      const reply = await admin.request({ method: 'GET', url: `/api/vulnerability/list/statistic/${projectId}?size=500` });
      expect(reply.body.code, reply.body.message).toBe(1);
      const rows = reply.body.data.content as Array<{ identify: string; componentName: string; level: number; score: number | null; fixedVersions: string[] }>;
      return { counts: reply.body.data.counts as unknown, rows: rows.map((f) => JSON.stringify([f.identify, f.componentName, f.level, f.score, f.fixedVersions])).sort() };
    };
    const treeFindings = await findings(tree);
    expect(treeFindings.rows.length).toBeGreaterThan(5);
    expect(await findings(feature)).toEqual(treeFindings);

    const licences = async (projectId: number) => {
      const reply = await admin.request({ method: 'GET', url: `/api/license/list/${projectId}?size=500` });
      expect(reply.body.code, reply.body.message).toBe(1);
      const rows = reply.body.data.content as Array<{ spdxId: string; level: number; componentCount: number; fileCount: number; sources: unknown[] }>;
      return rows.map((l) => JSON.stringify([l.spdxId, l.level, l.componentCount, l.fileCount, l.sources])).sort();
    };
    const treeLicences = await licences(tree);
    expect(treeLicences.length).toBeGreaterThanOrEqual(2);
    expect(treeLicences.some((l) => l.startsWith('["Apache-2.0"'))).toBe(true);
    expect(await licences(feature)).toEqual(treeLicences);
    const copyrights = async (projectId: number) => {
      const reply = await admin.request({ method: 'GET', url: `/api/license/copyright/${projectId}?size=500` });
      expect(reply.body.code, reply.body.message).toBe(1);
      return (reply.body.data.content as Array<Record<string, unknown>>).map((r) => JSON.stringify(r)).sort();
    };
    const treeCopyrights = await copyrights(tree);
    expect(treeCopyrights.some((r) => r.includes('Portal Team'))).toBe(true);
    expect(await copyrights(feature)).toEqual(treeCopyrights);

    // The file tree lists every file with its size, the source files too, though only their hashes were sent.
    const level = async (projectId: number, pathId?: string): Promise<string[]> => {
      const url = pathId ? `/api/resultTree/list/file/${projectId}?pathId=${encodeURIComponent(pathId)}&size=500` : `/api/resultTree/file/${projectId}?size=500`;
      const reply = await admin.request({ method: 'GET', url });
      expect(reply.body.code, `${url} ${reply.body.message}`).toBe(1);
      const nodes = reply.body.data.content as Array<{ pathId: string; name: string; isDir: boolean; size: number; componentCount: number }>;
      const out: string[] = [];
      for (const n of nodes) {
        out.push(`${n.pathId} ${n.isDir} ${n.size} ${n.componentCount}`);
        if (n.isDir) out.push(...(await level(projectId, n.pathId)));
      }
      return out.sort();
    };
    const treeFiles = await level(tree);
    expect(treeFiles.some((f) => f.startsWith('portal/cmd/main.go false '))).toBe(true);
    expect(await level(feature)).toEqual(treeFiles);
  }, 240_000);

  it('refuses a feature file launched as source code, saying which source type takes it', async () => {
    const uploadId = await uploadFile(admin, featureZip);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'portal-as-source', getCodeType: 0, uploadId } });
    expect(launched.body).toMatchObject({ code: 0, field: 'uploadId' });
    expect(launched.body.message).toBe('上传的文件 portal.cairn-feature.zip 是 Cairn 特征文件（cairn feature 生成）：请将代码来源选为“特征文件（清单与锁文件）”后发起分析');
  });

  it('refuses at launch a feature file whose content does not match its manifest', async () => {
    // The feature file with one included file's bytes changed (same size): its SHA-256 no longer matches.
    const zip = await yauzl.openPromise(featureZip, { lazyEntries: true });
    const out = new yazl.ZipFile();
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const c of await zip.openReadStreamPromise(entry)) chunks.push(c as Buffer);
      let body = Buffer.concat(chunks);
      if (entry.fileName === 'tree/gomod/go.mod') body = Buffer.from(body.toString('latin1').replace('module', 'MODULE'), 'latin1');
      out.addBuffer(body, entry.fileName);
    }
    zip.close();
    out.end();
    const chunks: Buffer[] = [];
    for await (const c of out.outputStream) chunks.push(c as Buffer);
    const tampered = path.join(work, `tampered-${database.name}.zip`);
    writeFileSync(tampered, Buffer.concat(chunks));
    expect(readFileSync(tampered).length).toBeGreaterThan(0);

    const uploadId = await uploadFile(admin, tampered);
    const launched = await admin.request({ method: 'POST', url: '/api/analysis', body: { subjectId, projectName: 'portal-tampered', getCodeType: 9, uploadId } });
    expect(launched.body.code).toBe(0);
    expect(launched.body.message).toMatch(/特征文件无效：文件 gomod\/go\.mod 的内容与清单中的 SHA-256 不符/);
  }, 60_000);
});
