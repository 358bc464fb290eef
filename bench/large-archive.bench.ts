// Issue 6: a 2 GB archive through the whole platform path — chunked upload over HTTP, launch,
// unpack, scan, licence/copyright reading, matching, saving — measuring the platform process's
// peak memory (the analysis thread runs inside it). Run: `npm run bench -- large-archive`.
// Set CAIRN_BENCH_ARCHIVE_MB to change the size (default 2048).
import { execFileSync } from 'node:child_process';
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buildApp } from '../server/app.ts';

const MiB = 1024 * 1024;
const CHUNK = 16 * MiB;

export async function run(): Promise<void> {
  const totalMb = Number(process.env.CAIRN_BENCH_ARCHIVE_MB ?? 2048);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-large-'));
  try {
    // Incompressible payload files (stored, not deflated) plus real manifests to find.
    const src = join(dir, 'src');
    mkdirSync(join(src, 'data'), { recursive: true });
    const files = Math.max(1, Math.round(totalMb / 128));
    for (let i = 0; i < files; i++) execFileSync('sh', ['-c', `head -c ${Math.round((totalMb / files) * MiB)} /dev/urandom > ${join(src, 'data', `blob-${i}.bin`)}`]);
    execFileSync('cp', ['-r', join('..', 'shared', 'corpora', 'trivy', 'repo', 'gomod'), join(src, 'gomod')]);
    execFileSync('cp', ['-r', join('..', 'shared', 'corpora', 'trivy', 'repo', 'npm'), join(src, 'npm')]);
    writeFileSync(join(src, 'LICENSE'), 'Copyright (c) 2026 Bench Corp\n\nPermission is hereby granted, free of charge, to any person obtaining a copy of this software\n');
    const zip = join(dir, 'large.zip');
    execFileSync('zip', ['-0', '-qr', zip, '.'], { cwd: src });
    rmSync(src, { recursive: true, force: true });
    const size = statSync(zip).size;
    console.log(`归档：${(size / MiB).toFixed(0)} MiB（${files} 个不可压缩文件 + go.mod、package-lock.json）`);

    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 100);
    const app = await buildApp({ database: { kind: 'sqlite', file: join(dir, 'cairn.db') }, logLevel: 'silent', scanConcurrency: 1 });
    await app.cairn.db.updateTable('users').set({ updated_pwd: 1 }).where('username', '=', 'admin').execute();
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const csrf = await fetch(`${base}/api/csrf`, { method: 'POST' });
      const cookie = csrf.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const { data } = (await csrf.json()) as { data: { token: string } };
      const json = { cookie, 'x-csrf-token': data.token, 'content-type': 'application/json' };
      const login = await fetch(`${base}/api/login`, { method: 'POST', headers: json, body: JSON.stringify({ username: 'admin', password: 'Cairn@123' }) });
      const headers = { ...json, cookie: `${cookie}; ${login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ')}` };
      const call = async (method: string, path: string, body?: unknown) => {
        const reply = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
        const envelope = (await reply.json()) as { code: number; message: string; data: any };
        if (envelope.code !== 1 && envelope.message !== 'SUCCESS') throw new Error(`${method} ${path}: ${envelope.message}`);
        return envelope;
      };
      const subject = await call('POST', '/api/subject/create', { name: '大文件基准', description: '', importance: 3 });

      let started = performance.now();
      const upload = await call('POST', '/api/upload', { fileName: 'large.zip', size });
      const id = upload.data.uploadId as string;
      for (let offset = 0; offset < size; offset += CHUNK) {
        const end = Math.min(size, offset + CHUNK) - 1;
        const body = Readable.toWeb(createReadStream(zip, { start: offset, end })) as ReadableStream;
        const reply = await fetch(`${base}/api/upload/${id}?offset=${offset}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream' }, body, duplex: 'half' } as RequestInit);
        const envelope = (await reply.json()) as { code: number; message: string };
        if (envelope.code !== 1) throw new Error(`上传失败：${envelope.message}`);
      }
      const uploadMs = performance.now() - started;
      const peakUpload = peak;

      started = performance.now();
      const launched = await call('POST', '/api/analysis', { subjectId: subject.data.id, projectName: 'large-archive', getCodeType: 0, uploadId: id, analysisModes: '1,4,7' });
      let row: { status: number; message: string; progress: number };
      for (;;) {
        row = (await call('GET', `/api/project-task-view/progress?projectIds=${launched.data.projectId}`)).data[0];
        if (row.status === 2 || row.status === 3) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      const analyseMs = performance.now() - started;
      clearInterval(sampler);
      const maxRss = process.resourceUsage().maxRSS * 1024;
      console.log(`上传 ${(size / MiB).toFixed(0)} MiB：${(uploadMs / 1000).toFixed(1)} 秒（${(size / MiB / (uploadMs / 1000)).toFixed(0)} MiB/s），期间 RSS 峰值 ${(peakUpload / MiB).toFixed(0)} MiB`);
      console.log(`分析：${row.status === 2 ? '成功' : `失败（${row.message}）`}，${(analyseMs / 1000).toFixed(1)} 秒`);
      console.log(`平台进程 RSS：启动前 ${(rssBefore / MiB).toFixed(0)} MiB，采样峰值 ${(peak / MiB).toFixed(0)} MiB，maxRSS ${(maxRss / MiB).toFixed(0)} MiB`);
    } finally {
      clearInterval(sampler);
      await app.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
