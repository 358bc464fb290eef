// Walk thread of walkTree (tree.ts) for a large tree: continues the walk from the stack it is
// given, in the same order, and posts the files in batches. Blocking reads are the cheap way here:
// no promise and no thread-pool hand-off per file, and the caller's event loop is not this one.
import { lstatSync, opendirSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { DIR_BUFFER, entryKind, INSTALLED, WALK_AHEAD, type WalkBatch, type WalkJob } from './tree.ts';

/** Files per message: few messages, and the caller gets its first files at once. */
const BATCH = 256;

const { root, stack, installedPackages, taken } = workerData as WalkJob;
const options = { installedPackages };
let paths: string[] = [];
let sizes: number[] = [];
let posted = 0;

function post(end: Pick<WalkBatch, 'done' | 'error'> = {}): void {
  const batch: WalkBatch = { paths, sizes, ...end };
  parentPort!.postMessage(batch);
  posted += paths.length;
  paths = [];
  sizes = [];
  // Wait while the caller is far behind (it may be slower than the disk; a huge tree stays out of memory).
  for (let seen = Atomics.load(taken, 0); posted - seen > WALK_AHEAD; seen = Atomics.load(taken, 0)) Atomics.wait(taken, 0, seen);
}

try {
  while (stack.length) {
    const rel = stack.pop()!;
    const dirs: string[] = [];
    const dir = opendirSync(path.join(root, rel), { bufferSize: DIR_BUFFER });
    try {
      for (let entry = dir.readSync(); entry; entry = dir.readSync()) {
        const childRel = rel ? `${rel}/${entry.name}` : entry.name;
        const kind = entryKind(entry, options);
        if (kind === 'folder') dirs.push(childRel);
        else if (kind === 'installed') { paths.push(childRel); sizes.push(INSTALLED); }
        else if (kind === 'file') {
          const { size } = lstatSync(path.join(root, childRel));
          paths.push(childRel);
          sizes.push(size);
        }
      }
    } finally {
      dir.closeSync();
    }
    for (const d of dirs) stack.push(d);
    if (paths.length >= BATCH) post();
  }
  post({ done: true });
} catch (error) {
  const { message, code, errno, syscall, path: file } = error as NodeJS.ErrnoException;
  post({ error: { message, code, errno, syscall, path: file } });
}
