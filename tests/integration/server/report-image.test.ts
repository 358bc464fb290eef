// Reports of a container image run, from the database to the file (issue 16), on SQLite and
// PostgreSQL: a run written with direct inserts (seed-run.ts) and given an image in its summary and
// a layer on each component row (0015) makes a report model with the image and each component's
// layer; a subject report, which merges runs, carries neither; a run without an image is as before.
// Then the report queue writes the CycloneDX, SPDX and PDF of the image run and the downloads carry
// the container with its operating system, the layers and the 容器镜像 section, schema-valid.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunImage } from '../../../contract/api/image.ts';
import { buildReportModel } from '../../../server/reports/build-model.ts';
import { databases, signIn, useServer, type TestClient } from './harness.ts';
import { seedRun, type SeededRun } from './fixtures/seed-run.ts';

const SPDX_SCHEMA = process.env.CAIRN_SPDX_SCHEMA || join(process.cwd(), '..', 'shared', 'schemas', 'spdx-schema.json');
const tool = { name: 'Cairn', version: 'test' };

const IMAGE: RunImage = {
  reference: 'harbor.example.com/bank/portal:4.1.0',
  manifestDigest: `sha256:${'ab'.repeat(32)}`,
  platform: 'linux/arm64',
  os: { id: 'alpine', versionId: '3.20.3', prettyName: 'Alpine Linux v3.20' },
  created: '2026-10-30T12:00:00Z',
  size: 9_000_000,
  layers: [
    { index: 0, digest: `sha256:${'01'.repeat(32)}`, size: 3_600_000, createdBy: '/bin/sh -c #(nop) ADD file:ab12 in / ', components: 0 },
    { index: 1, digest: `sha256:${'02'.repeat(32)}`, size: 5_000_000, createdBy: 'RUN /bin/sh -c npm ci --omit=dev # buildkit', components: 7 },
    { index: 2, digest: `sha256:${'03'.repeat(32)}`, size: 400_000, createdBy: '/bin/sh -c #(nop) COPY dir:cd34 in /srv ', components: 4 },
  ],
};

describe.each(databases)('reports of an image run on $name', (database) => {
  const server = useServer(database);
  let member: TestClient;
  let seeded: SeededRun;
  let plain: SeededRun;
  /** The layer each seeded component is put in: npm in the npm ci layer, the rest copied in. */
  const layerOf = (key: string) => (['lodash', 'express', 'body-parser', 'qs', 'debug', 'ms', 'left-pad'].includes(key) ? 1 : 2);

  beforeAll(async () => {
    const signed = await signIn(server, 'zhaolei', 'Zhao@12345');
    member = signed.client;
    const { db } = server.app.cairn;
    seeded = await seedRun(db, { ownerId: signed.id, subjectName: '镜像报告', projectName: 'portal-image' });
    plain = await seedRun(db, { ownerId: signed.id, subjectName: '源码报告', projectName: 'portal-source' });
    const run = await db.selectFrom('runs').select('summary').where('id', '=', seeded.runId).executeTakeFirstOrThrow();
    await db.updateTable('runs').set({ summary: JSON.stringify({ ...JSON.parse(run.summary), image: IMAGE }) }).where('id', '=', seeded.runId).execute();
    await db.updateTable('projects').set({ get_code_type: 12 }).where('id', '=', seeded.projectId).execute();
    for (const [key, id] of Object.entries(seeded.components)) {
      await db.updateTable('run_components').set({ layer: layerOf(key) }).where('id', '=', id).execute();
    }
  });

  it('reads the image and each component\'s layer into a single run\'s model, and only there', async () => {
    const { db } = server.app.cairn;
    for (const kind of ['task', 'license'] as const) {
      const model = await buildReportModel(db, { kind, runIds: [seeded.runId], author: 'zhaolei', tool });
      expect(model.image).toEqual(IMAGE);
      for (const [key, id] of Object.entries(seeded.components)) {
        expect(model.components.find((c) => c.ref === `c${id}`)!.layer, key).toBe(layerOf(key));
      }
    }
    // A subject report merges runs: no one image, no layers.
    const subject = await buildReportModel(db, { kind: 'subject', runIds: [seeded.runId], subjectId: seeded.subjectId, author: 'zhaolei', tool });
    expect(subject.image).toBeNull();
    expect(subject.components.every((c) => c.layer === null)).toBe(true);
    // A run without an image reads as before.
    const source = await buildReportModel(db, { kind: 'task', runIds: [plain.runId], author: 'zhaolei', tool });
    expect(source.image).toBeNull();
    expect(source.components.every((c) => c.layer === null)).toBe(true);
  });

  it('generates the image run\'s CycloneDX, SPDX and PDF with the image and layers', async () => {
    const queued = await member.request({ method: 'POST', url: '/api/report', body: { projectId: seeded.projectId, reportTypes: [5, 4, 3] } });
    expect(queued.body.code, queued.body.message).toBe(1);
    const [cdxId, spdxId, pdfId] = queued.body.data.reportIds as number[];
    const { db, dataDir } = server.app.cairn;
    const deadline = Date.now() + 120_000;
    let rows;
    for (;;) {
      rows = await db.selectFrom('reports').select(['id', 'status', 'message', 'file']).where('id', 'in', [cdxId!, spdxId!, pdfId!]).execute();
      if (rows.every((r) => r.status === 2 || r.status === 4)) break;
      if (Date.now() > deadline) throw new Error(`报告未在时限内生成：${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(rows.filter((r) => r.status !== 2), JSON.stringify(rows)).toEqual([]);
    const fileOf = (id: number) => join(dataDir, rows.find((r) => r.id === id)!.file!);

    const cdxText = await readFile(fileOf(cdxId!), 'utf8');
    expect(await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(cdxText)).toBeNull();
    const bom = JSON.parse(cdxText) as { metadata: { component: Record<string, unknown> }; components: Array<{ name: string; properties: Array<{ name: string; value: string }> }> };
    expect(bom.metadata.component).toMatchObject({ type: 'container', name: IMAGE.reference, version: IMAGE.manifestDigest, purl: expect.stringMatching(/^pkg:oci\/portal@sha256:(ab){32}\?arch=arm64&repository_url=harbor.example.com%2Fbank%2Fportal&tag=4.1.0$/) });
    // The base system (os-release) as an operating-system component the container depends on.
    const os = (bom.components as Array<Record<string, unknown>>).find((c) => c.type === 'operating-system');
    expect(os).toMatchObject({ name: 'alpine', version: '3.20.3', description: 'Alpine Linux v3.20' });
    const deps = (JSON.parse(cdxText) as { dependencies: Array<{ ref: string; dependsOn?: string[] }> }).dependencies;
    expect(deps.find((d) => d.ref === (bom.metadata.component as { 'bom-ref': string })['bom-ref'])!.dependsOn).toContain(os!['bom-ref']);
    const qs = bom.components.find((c) => c.name === 'qs')!;
    expect(qs.properties).toEqual(expect.arrayContaining([
      { name: 'cairn:image:layer:index', value: '1' },
      { name: 'cairn:image:layer:digest', value: IMAGE.layers[1]!.digest },
      { name: 'cairn:image:layer:createdBy', value: IMAGE.layers[1]!.createdBy },
    ]));

    const spdx = JSON.parse(await readFile(fileOf(spdxId!), 'utf8')) as { packages: Array<{ SPDXID: string; name: string; primaryPackagePurpose: string; annotations?: Array<{ comment: string }> }>; relationships: Array<Record<string, string>> };
    const root = spdx.packages[0]!;
    expect(root).toMatchObject({ name: IMAGE.reference, primaryPackagePurpose: 'CONTAINER' });
    expect(spdx.relationships).toContainEqual({ spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: root.SPDXID });
    const osPackage = spdx.packages.find((p) => p.primaryPackagePurpose === 'OPERATING_SYSTEM')!;
    expect(osPackage).toMatchObject({ name: 'alpine', versionInfo: '3.20.3' });
    expect(spdx.relationships).toContainEqual({ spdxElementId: root.SPDXID, relationshipType: 'CONTAINS', relatedSpdxElement: osPackage.SPDXID });
    const lodash = spdx.packages.find((p) => p.name === 'lodash')!;
    expect(spdx.relationships).toContainEqual({ spdxElementId: root.SPDXID, relationshipType: 'CONTAINS', relatedSpdxElement: lodash.SPDXID });
    expect(lodash.annotations!.map((a) => a.comment)).toContain(`cairn:image:layer:digest: ${IMAGE.layers[1]!.digest}`);
    if (existsSync(SPDX_SCHEMA)) {
      const { default: Ajv } = await import('ajv');
      const { default: addFormats } = await import('ajv-formats');
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const validate = ajv.compile(JSON.parse(await readFile(SPDX_SCHEMA, 'utf8')) as object);
      validate(spdx);
      expect(validate.errors ?? []).toEqual([]);
    }

    const task = getDocument({ data: new Uint8Array(await readFile(fileOf(pdfId!))), useSystemFonts: false });
    const pdf = await task.promise;
    let text = '';
    for (let i = 1; i <= Math.min(pdf.numPages, 6); i++) text += (await (await pdf.getPage(i)).getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join('');
    await task.destroy();
    for (const expected of ['容器镜像', 'Alpine Linux v3.20', 'linux/arm64', 'RUN npm ci --omit=dev', '镜像层', '第 2 层']) expect(text).toContain(expected);
  }, 180_000);
});
