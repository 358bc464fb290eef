// The desktop's feature-file writer: a process of its own (main/services/feature-writer.ts starts it
// as an Electron utilityProcess, or with child_process.fork in the web host and the tests), since
// main may not import the engine. It writes the feature file of one folder or container image, named by the
// environment, and tells its parent how far it is and what it wrote, over every channel the parent
// may listen on (Electron's parentPort, the fork IPC channel); SIGTERM or a {type:'cancel'} message
// stops it, leaving nothing half-written (writeFeatureFile renames a finished file into place).
//
//   CAIRN_FEATURE_ROOT     the folder; for an image, its docker save / OCI tar or OCI layout folder
//   CAIRN_FEATURE_OUT      the feature file to write (its folder exists; an image is unpacked beside it meanwhile)
//   CAIRN_FEATURE_VERSION  the app's version, recorded as the writing tool's
//   CAIRN_FEATURE_KIND     `image` for a container image's feature file (镜像特征文件); else a folder's
//   CAIRN_FEATURE_PLATFORM an image's platform (`linux/arm64`); linux/amd64 or the only one when absent
//
// Messages to the parent: {type:'progress', files, bytes}, then {type:'done', result} or
// {type:'error', message} (Chinese). The process exits once the last one is sent (under Electron,
// when the parent, having it, stops the process).
import path from 'node:path';
import { writeImageFeatureFile } from './image.ts';
import { writeFeatureFile, type WriteFeatureResult } from './write.ts';

type FeatureWriterMessage =
  | { type: 'progress'; files: number; bytes: number }
  | { type: 'done'; result: WriteFeatureResult }
  | { type: 'error'; message: string };

/** Electron's utilityProcess adds process.parentPort; plain Node does not have it. */
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function tell(message: FeatureWriterMessage): Promise<void> {
  parentPort?.postMessage(message);
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

const controller = new AbortController();
/** Set once the last message is sent: a stop request then only ends the process. */
let finished: number | null = null;
const stop = () => (finished === null ? controller.abort() : process.exit(finished));
const isCancel = (message: unknown) => typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'cancel';
process.on('message', (message) => { if (isCancel(message)) stop(); });
parentPort?.on('message', (event) => { if (isCancel(event.data)) stop(); });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent went away (fork): nobody waits for the file any more.
process.on('disconnect', () => controller.abort());

const root = process.env.CAIRN_FEATURE_ROOT;
const out = process.env.CAIRN_FEATURE_OUT;
let code = 0;
if (!root || !out) {
  await tell({ type: 'error', message: '特征文件写入进程缺少要扫描的文件夹或输出文件' });
  code = 2;
} else {
  // Progress at most every 200 ms: a tree of small files would otherwise flood the channel.
  let last = 0;
  try {
    const options = {
      signal: controller.signal,
      tool: { name: 'Cairn', version: process.env.CAIRN_FEATURE_VERSION || '' },
      onProgress: ({ files, bytes }: { files: number; bytes: number }) => {
        const now = Date.now();
        if (now - last < 200) return;
        last = now;
        void tell({ type: 'progress', files, bytes });
      },
    };
    // An image is unpacked beside the output (the app's own temp folder, not a RAM-backed /tmp).
    const result = process.env.CAIRN_FEATURE_KIND === 'image'
      ? await writeImageFeatureFile(root, out, { ...options, tempDir: path.dirname(path.resolve(out)), platform: process.env.CAIRN_FEATURE_PLATFORM || undefined })
      : await writeFeatureFile(root, out, options);
    await tell({ type: 'done', result });
  } catch (error) {
    const message = controller.signal.aborted ? '已取消生成特征文件' : error instanceof Error ? error.message : String(error);
    await tell({ type: 'error', message });
    code = 1;
  }
}
finished = code;
// A fork's message is flushed by then (tell waits for it); Electron's postMessage has no such
// callback, so there the parent ends the process once it has the message (and a timer does if not).
if (parentPort) setTimeout(() => process.exit(code), 10_000);
else process.exit(code);
