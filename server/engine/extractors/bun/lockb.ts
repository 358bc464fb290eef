// bun.lockb, the binary lockfile bun wrote before bun.lock (bun < 1.2), read as bun's
// src/install/lockfile.zig serialises it (little-endian throughout):
//   header `#!/usr/bin/env bun\nbun-lockfile-format-v0\n`, u32 format version, 32-byte meta hash,
//   u64 end of the lockfile proper;
//   the packages, a MultiArrayList: u64 count, u64 alignment, u64 field count, u64 begin, u64 end,
//   then from `begin` one array per field, in declaration order: name (String, 8 bytes),
//   name_hash (u64), resolution (64 bytes: u8 tag, 7 padding, value), dependencies and
//   resolutions (slices: u32 offset, u32 length into the buffers below), then meta, bin and
//   scripts (not needed here);
//   then from `end` the buffers, each `u64 start, u64 end, "\n<type> N sizeof, M alignof\n"`,
//   padding, the data in [start, end), and the next buffer at `end`: trees, hoisted
//   dependencies, resolutions (u32 package id per dependency), dependencies (26 bytes each:
//   name String, name_hash u64, behaviour u8, version tag u8, literal String), external strings
//   and the string bytes.
// A String is 8 bytes: inline when the top bit of its last byte is clear (up to 8 bytes, NUL
// padded), else u32 offset and u32 length (top bit cleared) into the string bytes.
// Resolution tags: 1 root, 2 npm (value: url String, then the version: u32 major, minor, patch,
// 4 padding, pre and build as 16-byte external strings), 4 folder, 8 local tarball, 16 GitHub,
// 32 git (value: owner, repo, committish, resolved, package name Strings), 64 symlink, 72
// workspace, 80 remote tarball. Behaviour bits: 2 prod, 4 optional, 8 dev, 16 peer, 32 workspace.
// The root and the workspaces are the project's own; what their dependencies resolve to are the
// direct components (development when only declared as devDependencies), edges come from each
// package's dependency slice.
import type { ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { assemble, newNode, readInstalledLicenses } from '../js-common/graph.ts';
import type { JsNode } from '../js-common/graph.ts';
import { readManifest } from '../js-common/manifest.ts';
import { baseOf, dirOf, joinPath } from '../js-common/paths.ts';

const HEADER = '#!/usr/bin/env bun\nbun-lockfile-format-v0\n';
const TAG = { root: 1, npm: 2, folder: 4, localTarball: 8, github: 16, git: 32, symlink: 64, workspace: 72, remoteTarball: 80 } as const;
const BEHAVIOR = { prod: 2, optional: 4, dev: 8, peer: 16 } as const;
const RESOLUTION_SIZE = 64;
const DEPENDENCY_SIZE = 26;
const INVALID_ID = 0xffffffff;

export interface LockbPackage {
  name: string;
  /** Resolution tag (TAG). */
  tag: number;
  version: string;
  /** Package ids of its dependencies, with the behaviour bits of each. */
  dependencies: Array<{ id: number; name: string; behavior: number }>;
}

export interface Lockb { format: number; packages: LockbPackage[] }

export function parseBunLockb(buf: Buffer, file: string): Lockb {
  const fail = (what: string): never => { throw new ExtractError(`${file} 不是可读取的 bun.lockb：${what}`); };
  if (buf.length < HEADER.length + 4 + 32 + 8 || buf.toString('latin1', 0, HEADER.length) !== HEADER) fail('文件头不是 bun-lockfile-format-v0');
  const u32 = (at: number) => (at + 4 <= buf.length ? buf.readUInt32LE(at) : fail(`第 ${at} 字节处意外结束`));
  const u64 = (at: number) => {
    if (at + 8 > buf.length) fail(`第 ${at} 字节处意外结束`);
    const v = buf.readBigUInt64LE(at);
    if (v > BigInt(buf.length)) fail(`第 ${at} 字节处的长度或位置 ${v} 超出文件`);
    return Number(v);
  };
  let pos = HEADER.length;
  const format = u32(pos);
  pos += 4 + 32; // format version, meta hash
  pos += 8; // end of the lockfile proper

  const count = u64(pos);
  const fieldCount = u64(pos + 16);
  const begin = u64(pos + 24);
  const packagesEnd = u64(pos + 32);
  if (fieldCount < 5) fail(`包列表只有 ${fieldCount} 个字段`);
  const names = begin;
  const resolutions = names + count * 16; // after name and name_hash
  const depSlices = resolutions + count * RESOLUTION_SIZE;
  const resSlices = depSlices + count * 8;
  if (resSlices + count * 8 > packagesEnd || packagesEnd > buf.length) fail('包列表超出其声明的范围');

  // The buffers, in the order lockfile.zig writes them.
  const buffers: Array<{ start: number; end: number }> = [];
  for (let at = packagesEnd, k = 0; k < 6; k++) {
    const start = u64(at);
    const end = u64(at + 8);
    if (end < start || start < at + 16) fail(`第 ${k + 1} 个缓冲区的范围无效`);
    buffers.push({ start, end });
    at = end;
  }
  const [, , resolutionBuf, dependencyBuf, , stringBuf] = buffers as [unknown, unknown, { start: number; end: number }, { start: number; end: number }, unknown, { start: number; end: number }];
  if ((dependencyBuf.end - dependencyBuf.start) % DEPENDENCY_SIZE !== 0) fail('依赖缓冲区的长度不是 26 字节的整数倍');
  const dependencyCount = (dependencyBuf.end - dependencyBuf.start) / DEPENDENCY_SIZE;
  if ((resolutionBuf.end - resolutionBuf.start) / 4 !== dependencyCount) fail('依赖与其解析结果的数目不一致');

  const string = (at: number): string => {
    if (buf[at + 7]! & 0x80) {
      const off = buf.readUInt32LE(at);
      const len = buf.readUInt32LE(at + 4) & 0x7fffffff;
      if (stringBuf.start + off + len > stringBuf.end) fail(`第 ${at} 字节处的字符串超出字符串缓冲区`);
      return buf.toString('utf8', stringBuf.start + off, stringBuf.start + off + len);
    }
    const raw = buf.subarray(at, at + 8);
    const nul = raw.indexOf(0);
    return raw.toString('utf8', 0, nul < 0 ? 8 : nul);
  };
  const slice = (at: number) => ({ off: buf.readUInt32LE(at), len: buf.readUInt32LE(at + 4) });

  const packages: LockbPackage[] = [];
  for (let i = 0; i < count; i++) {
    const name = string(names + i * 8);
    const r = resolutions + i * RESOLUTION_SIZE;
    const tag = buf[r]!;
    const value = r + 8;
    let version = '';
    if (tag === TAG.npm) {
      const v = value + 8; // after the tarball URL
      version = `${buf.readUInt32LE(v)}.${buf.readUInt32LE(v + 4)}.${buf.readUInt32LE(v + 8)}`;
      const pre = string(v + 16);
      const build = string(v + 32);
      if (pre) version += `-${pre}`;
      if (build) version += `+${build}`;
    } else if (tag === TAG.git || tag === TAG.github) {
      version = string(value + 24) || string(value + 16); // resolved commit, else the committish
    }
    const deps = slice(depSlices + i * 8);
    const res = slice(resSlices + i * 8);
    if (deps.off + deps.len > dependencyCount || res.off + res.len > dependencyCount) fail(`包“${name}”的依赖范围超出依赖缓冲区`);
    const dependencies: LockbPackage['dependencies'] = [];
    for (let k = 0; k < deps.len; k++) {
      const d = dependencyBuf.start + (deps.off + k) * DEPENDENCY_SIZE;
      const id = buf.readUInt32LE(resolutionBuf.start + (res.off + k) * 4);
      if (id === INVALID_ID || id >= count) continue; // an optional dependency not installed here
      dependencies.push({ id, name: string(d), behavior: buf[d + 16]! });
    }
    packages.push({ name, tag, version, dependencies });
  }
  return { format, packages };
}

const LOCAL_TAGS = new Set<number>([TAG.root, TAG.folder, TAG.symlink, TAG.workspace]);

async function extractLockb(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  // bun ≥ 1.2 writes bun.lock and reads it first: a bun.lockb left beside it is stale.
  if (await ctx.exists(joinPath(dirOf(file.path), 'bun.lock'))) return [];
  const { packages } = parseBunLockb(await file.read(), file.path);
  const nodes = new Map<string, JsNode>();
  packages.forEach((p, i) => {
    if (LOCAL_TAGS.has(p.tag) || !p.name) return;
    const node = newNode(String(i), p.name, p.version, { file: file.path });
    node.installedManifest = joinPath(dirOf(file.path), 'node_modules', p.name, 'package.json');
    nodes.set(node.id, node);
  });
  const runtimeRoots = new Set<string>();
  const devRoots = new Set<string>();
  packages.forEach((p, i) => {
    const node = nodes.get(String(i));
    for (const d of p.dependencies) {
      const id = String(d.id);
      if (!nodes.has(id) || id === String(i)) continue;
      if (node) node.deps.push(id);
      else if (p.tag === TAG.root || p.tag === TAG.workspace) {
        // Declared by the project: dev only when nothing declares it for production.
        if (d.behavior & BEHAVIOR.dev && !(d.behavior & (BEHAVIOR.prod | BEHAVIOR.optional | BEHAVIOR.peer))) devRoots.add(id);
        else runtimeRoots.add(id);
      }
    }
  });
  for (const r of runtimeRoots) devRoots.delete(r);
  const root = packages.find((p) => p.tag === TAG.root);
  let name = root?.name ?? '';
  let version = '';
  const manifest = await readManifest(ctx.readText, joinPath(dirOf(file.path), 'package.json'));
  if (manifest && (!name || manifest.name === name)) { name = manifest.name; version = manifest.version; }
  await readInstalledLicenses(nodes.values(), ctx);
  return [assemble(nodes, { file: file.path, type: 'bun-lockb', project: name ? { name, version } : null, runtimeRoots, devRoots, explicitDev: false })];
}

export const bunLockbExtractor: Extractor = {
  name: 'bun-lockb',
  ecosystem: 'npm',
  reads: ['bun.lockb'],
  matches: (path) => baseOf(path) === 'bun.lockb' && !path.split('/').includes('node_modules'),
  extract: extractLockb,
};
