// One claimed run from start to finish. The engine analyses the project's input (analyseProject:
// extraction and file analyzers in a worker thread, then vulnerability matching and licence
// levels); this job supplies what only the platform has — the project and its upload from the
// database, the knowledge base's advisory index and the administrators' licence levels — writes
// progress to the run as it goes, and saves everything in one transaction. A run paused or stopped
// from elsewhere is noticed at the next progress write and abandoned. The queue runs this in a
// thread of its own with its own database connection (run-thread.ts), never on the event loop.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { RunStage } from '../../contract/api/task.ts';
import { isContainerRegistryType, isImageUploadType, parseAnalysisModes } from '../../contract/enums.ts';
import { inputKindOf, unsupportedSource } from '../../contract/sources.ts';
import type { Database } from '../db/schema.ts';
import { levelsOf } from '../db/repositories/licenses.ts';
import { findProject, type ProjectRow } from '../db/repositories/projects.ts';
import { reportProgress, type RunRow } from '../db/repositories/runs.ts';
import { analyseProject, skippedExtractorFamilies, formatImageReference, JAR_INDEX_FILE, pullImage, RegistryError, type KnowledgeSource, type ProjectLicense, type PullProgress } from '../engine/index.ts';
import { UserError } from '../errors.ts';
import { getAdvisoryIndex } from '../kb/index-cache.ts';
import { runCoverage } from '../kb/status.ts';
import { decryptSecret } from '../secrets.ts';
import { onlineResolutionFor } from '../services/scan-config.ts';
import { maxUploadBytes } from '../uploads/limits.ts';
import { findCompleteUpload } from '../uploads/store.ts';
import { openRunFolder, type RunFolder } from './leftovers.ts';
import { saveRunResults, type RunOutbound } from './save-results.ts';
import { analysisLeakOptions } from '../services/leak-rules.ts';

/** A run ended by the platform for a reason the user can act on (its message is the run's message). */
export class RunError extends UserError {}

/** Overall percentage of each stage's start and end. */
const SPAN: Record<'preparing' | 'scanning' | 'licenses' | 'matching' | 'saving', [number, number]> = {
  preparing: [1, 15],
  scanning: [15, 50],
  licenses: [50, 80],
  matching: [80, 90],
  saving: [90, 99],
};

export interface ExecuteContext {
  db: Kysely<Database>;
  dataDir: string;
  worker: string;
  /** Heap cap of the analysis thread in MiB. */
  maxHeapMb?: number;
}

export async function executeRun(ctx: ExecuteContext, run: RunRow, signal: AbortSignal): Promise<void> {
  const project = await findProject(ctx.db, run.project_id);
  if (!project) throw new RunError('项目已被删除', 'not-found');
  const kind = inputKindOf(project.get_code_type);
  if (!kind) throw new RunError(unsupportedSource(project.get_code_type)!, 'unavailable');
  // A registry's image is pulled into the run's folder below; every other type reads its upload.
  const registry = isContainerRegistryType(project.get_code_type) ? registrySettingsOf(project, ctx.dataDir) : null;
  let upload: { path: string; fileName: string } | undefined;
  if (!registry) {
    if (!project.upload_id) throw new RunError('项目没有上传文件，请编辑项目并重新上传');
    upload = (await findCompleteUpload(ctx.db, ctx.dataDir, project.upload_id)) ?? undefined;
    if (!upload) throw new RunError('项目的上传文件不存在或未上传完成，请编辑项目并重新上传', 'not-found');
  }

  // Progress writes are throttled (the poller reads once a second at most anyway); stage
  // boundaries are written at once.
  let lastWrite = 0;
  let lost = false;
  const controller = new AbortController();
  const abort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', abort, { once: true });
  const progress = async (stage: RunStage & keyof typeof SPAN, fraction: number, force = false, message = '') => {
    const now = Date.now();
    if (!force && now - lastWrite < 500) return;
    lastWrite = now;
    const [from, to] = SPAN[stage];
    const stillOurs = await reportProgress(ctx.db, run.id, ctx.worker, stage, from + (to - from) * fraction, message);
    if (!stillOurs && !lost) { lost = true; controller.abort(new RunError('任务已被暂停或停止', 'conflict')); }
  };
  // Asked for once the inventory is known, so matching uses the knowledge base as it is then.
  const knowledge: KnowledgeSource = async ({ licenseIds }) => ({
    advisories: await getAdvisoryIndex(ctx.db, { fresh: true }),
    licenseLevels: await levelsOf(ctx.db, licenseIds),
  });

  // The run's work folder lives until the results are saved (or not): one left behind by a dead
  // process is swept (leftovers.ts).
  let folder: RunFolder | undefined;
  try {
    folder = await openRunFolder(ctx.dataDir, run.id, ctx.worker);
    // Pulling takes the first part of the preparing stage; the engine's own preparation the rest.
    const pulled = registry ? await pull(registry, folder.dir, controller.signal, (fraction, message, force) => progress('preparing', fraction * PULL_SHARE, force, message)) : null;
    const input = pulled
      ? { file: pulled.layoutDir, fileName: pulled.reference, platform: pulled.platform, imageReference: pulled.reference }
      : { file: upload!.path, fileName: upload!.fileName, platform: uploadPlatformOf(project) };
    const preparing = (fraction: number) => (pulled ? PULL_SHARE + (1 - PULL_SHARE) * fraction : fraction);
    const modes = parseAnalysisModes(run.analysis_modes);
    // Online resolution (扫描配置, off by default) for inputs whose manifests can be resolved.
    const online = kind === 'source' || kind === 'binary' || kind === 'feature' ? await onlineResolutionFor(ctx.db, ctx.dataDir, project.subject_id) : undefined;
    // Sensitive information (mode 9) with the rules as they are when the run starts.
    const analyzerOptions = modes.includes(9) ? await analysisLeakOptions(ctx.db) : undefined;
    const { analysis, components } = await analyseProject(
      {
        ...input, kind, modes, workParent: folder.dir, jarIndex: await jarIndexOf(ctx.dataDir),
        // Binary extractors (executables, libraries) with mode 8 on source inputs; images and binaries keep every family.
        skipExtractorFamilies: skippedExtractorFamilies(kind, modes),
        ...(online ? { online } : {}),
        ...(analyzerOptions ? { analyzerOptions } : {}),
      },
      knowledge,
      {
        signal: controller.signal,
        maxHeapMb: ctx.maxHeapMb,
        onProgress: (p) => progress(p.stage, p.stage === 'preparing' ? preparing(p.fraction) : p.fraction, p.milestone),
      },
    );
    await progress('saving', 0, true);
    // What the knowledge base covered, recorded with the results: an ecosystem it holds nothing
    // for, or a knowledge base empty or stale, makes the vulnerability results incomplete.
    const coverage = await runCoverage(ctx.db, components);
    const saved = await saveRunResults(ctx.db, run, ctx.worker, { analysis, components, outbound: outboundOf(project.outbound_license, analysis.projectLicense), coverage }, Boolean(project.retention_audit));
    if (!saved) throw new RunError('任务已被暂停或停止', 'conflict');
  } finally {
    signal.removeEventListener('abort', abort);
    await folder?.close();
  }
}

/** The share of the preparing stage a registry pull takes. */
const PULL_SHARE = 0.7;

/** What a registry project's run pulls: the reference, the credentials decrypted, the connection options. */
interface RegistrySettings {
  reference: string;
  username: string | undefined;
  password: string | undefined;
  caPem: string | undefined;
  insecureHttp: boolean;
  /** Undefined: linux/amd64 from a multi-platform image, whatever a single-platform image is. */
  platform: string | undefined;
}

const textOf = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/**
 * The platform analysed of an uploaded image (本地镜像文件): the project's choice; undefined:
 * linux/amd64, or the image's only platform. An image lacking it ends the run with the engine's
 * message naming the platforms it has.
 */
function uploadPlatformOf(project: ProjectRow): string | undefined {
  if (!isImageUploadType(project.get_code_type)) return undefined;
  return textOf((JSON.parse(project.source) as Record<string, unknown>).imagePlatform);
}

/** The SHA-1 index of Java archives the user put in the data folder, when there is one. */
async function jarIndexOf(dataDir: string): Promise<string | undefined> {
  const file = path.join(dataDir, JAR_INDEX_FILE);
  return (await stat(file).catch(() => null))?.isFile() ? file : undefined;
}

function registrySettingsOf(project: ProjectRow, dataDir: string): RegistrySettings {
  const source = JSON.parse(project.source) as Record<string, unknown>;
  const reference = textOf(source.imageNameTag);
  if (!reference) throw new RunError('项目没有填写镜像名称，请编辑项目并填写镜像名称与标签', 'invalid');
  const stored = textOf(source.imagePassword);
  let password: string | undefined;
  if (stored) {
    try {
      password = decryptSecret(dataDir, stored);
    } catch {
      throw new RunError('无法解密项目保存的镜像仓库密码（密钥文件已更换？），请编辑项目并重新填写密码', 'invalid');
    }
  }
  return {
    reference,
    username: textOf(source.imageUsername),
    password,
    caPem: textOf(source.imageCaPem),
    insecureHttp: source.imageInsecure === true,
    platform: textOf(source.imagePlatform),
  };
}

/**
 * Pulls the project's image into `<runFolder>/image` (an OCI layout) within the upload limit,
 * reporting bytes downloaded; a refusal of the registry ends the run with its Chinese message
 * (the password never in it).
 */
async function pull(
  settings: RegistrySettings, runFolder: string, signal: AbortSignal, report: (fraction: number, message: string, force: boolean) => Promise<void>,
): Promise<{ layoutDir: string; reference: string; platform: string }> {
  await report(0, `正在连接镜像仓库：${settings.reference}`, true);
  const onProgress = (p: PullProgress) => {
    const fraction = p.total > 0 ? Math.min(1, p.bytes / p.total) : 0;
    // a failed progress write is noticed by the next one (or the heartbeat); it must not end the pull
    report(fraction, `正在拉取镜像 ${settings.reference}：${formatMiB(p.bytes)} / ${formatMiB(p.total)}（共 ${p.layers} 层）`, false).catch(() => {});
  };
  try {
    const pulled = await pullImage(settings.reference, path.join(runFolder, 'image'), {
      auth: settings.username !== undefined || settings.password !== undefined ? { username: settings.username, password: settings.password } : undefined,
      caPem: settings.caPem,
      insecureHttp: settings.insecureHttp,
      platform: settings.platform,
      limits: { maxTotalBytes: maxUploadBytes() },
      signal,
      onProgress,
    });
    const reference = formatImageReference(pulled.reference);
    await report(1, `镜像已拉取：${reference}（${pulled.platform}，${formatMiB(pulled.bytes)}）`, true);
    return { layoutDir: pulled.layoutDir, reference, platform: pulled.platform };
  } catch (error) {
    if (error instanceof RegistryError) throw new RunError(error.message, error.kind);
    throw error;
  }
}

const formatMiB = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

/**
 * The outbound licence a run is judged against: the user's choice (the project's 出站许可证) >
 * the root project's manifests (else its root licence file: engine/project-license.ts) > none.
 */
export function outboundOf(setting: string | null, declared: ProjectLicense | null): RunOutbound | null {
  const chosen = setting?.trim();
  if (chosen) return { license: chosen, source: 'project', file: null };
  return declared ? { license: declared.expression, source: declared.source, file: declared.file } : null;
}
