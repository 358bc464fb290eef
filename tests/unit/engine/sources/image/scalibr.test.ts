// The scalibr image fixtures (docker save tars and the Dockerfiles they were built from, Apache-2.0,
// read in place from the shared corpus): after applying the layers, the final tree is what each
// Dockerfile describes: files and their contents, the layer that wrote each, deleted and
// overwritten files, symbolic links (kept as links, resolved inside the image root), cycles and
// escaping links refused. Also scalibr's layer-tracing scenario (populatelayers.yml), built here.
import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ImageError, detectImage, imagePlatforms, resolveInImage, unpackImage } from '../../../../../server/engine/sources/image/index.ts';
import type { SquashedImage } from '../../../../../server/engine/sources/image/index.ts';
import { useWorkspace } from '../archives.ts';
import { asTar, ociLayout } from './images.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../../../../../shared/corpora/images/scalibr/artifact/image');
const layerscanning = (name: string) => path.join(CORPUS, 'layerscanning/image/testdata', name);
const unpackData = (name: string) => path.join(CORPUS, 'unpack/testdata', name);
const dockerfileDir = (name: string) => path.join(CORPUS, 'testfixtures', name);

const ws = useWorkspace();

async function unpack(file: string, keep?: (p: string) => boolean): Promise<SquashedImage> {
  expect(await detectImage(file)).toBe('docker-archive');
  return unpackImage(file, path.join(ws.dir, 'root'), { keep });
}

/** Every entry of the tree: `path` for files, `path -> target` for links, `path/` for folders. */
async function tree(root: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const name of (await readdir(path.join(root, rel))).sort()) {
    const p = rel ? `${rel}/${name}` : name;
    const info = await lstat(path.join(root, p));
    if (info.isSymbolicLink()) out.push(`${p} -> ${await readlink(path.join(root, p))}`);
    else if (info.isDirectory()) out.push(`${p}/`, ...(await tree(root, p)));
    else out.push(p);
  }
  return out;
}

const source = (fixture: string, file: string) => readFile(path.join(dockerfileDir(fixture), file), 'utf8');
const content = (image: SquashedImage, p: string) => readFile(path.join(image.root, p), 'utf8');

async function resolved(image: SquashedImage, p: string): Promise<string | null> {
  const real = await resolveInImage(image.root, p);
  return real === null ? null : path.relative(image.root, real).split(path.sep).join('/');
}

describe('scalibr fixtures: the final tree is what the Dockerfile describes', () => {
  it.each([layerscanning('basic.tar'), unpackData('basic.tar'), path.join(CORPUS, 'tar/testdata/basic.tar')])('basic (%s): COPY sample.txt, then COPY larger-sample.txt', async (file) => {
    const image = await unpack(file);
    expect(await tree(image.root)).toEqual(['larger-sample.txt', 'sample.txt']);
    expect(await content(image, 'sample.txt')).toBe(await source('basic', 'sample.txt'));
    expect(await content(image, 'larger-sample.txt')).toBe(await source('basic', 'larger-sample.txt'));
    expect(image.layerOf('sample.txt')).toBe(0);
    expect(image.layerOf('larger-sample.txt')).toBe(1);
    expect(image.files).toBe(2);
    expect(image.bytes).toBe(17 + 6800);
    expect(image.info.repoTags).toEqual(['basic:latest']);
    expect(image.info.platform).toEqual({ os: 'linux', architecture: 'amd64' });
    expect(image.info.layers.map((l) => l.createdBy)).toEqual(['COPY sample.txt / # buildkit', 'COPY larger-sample.txt / # buildkit']);
    // A docker save's layer.tar is uncompressed: its digest is its diff_id.
    for (const layer of image.info.layers) expect(layer.digest).toBe(layer.diffId);
    expect(image.notes).toEqual([]);
  });

  it('single-file: COPY ./foo.txt /foo.txt', async () => {
    const image = await unpack(layerscanning('single-file.tar'));
    expect(await tree(image.root)).toEqual(['foo.txt']);
    expect(await content(image, 'foo.txt')).toBe(await source('single-file', 'foo.txt'));
    expect(image.layerOf('foo.txt')).toBe(0);
  });

  it('two-files: one file per layer', async () => {
    const image = await unpack(layerscanning('two-files.tar'));
    expect(await tree(image.root)).toEqual(['bar.txt', 'foo.txt']);
    expect([image.layerOf('foo.txt'), image.layerOf('bar.txt')]).toEqual([0, 1]);
  });

  it('multiple-files: COPY foo.txt, then COPY dir1/', async () => {
    const image = await unpack(layerscanning('multiple-files.tar'));
    expect(await tree(image.root)).toEqual(['dir1/', 'dir1/bar.txt', 'dir1/baz.txt', 'foo.txt']);
    for (const p of ['foo.txt', 'dir1/bar.txt', 'dir1/baz.txt']) expect(await content(image, p)).toBe(await source('multiple-files', p));
    expect([image.layerOf('foo.txt'), image.layerOf('dir1/bar.txt'), image.layerOf('dir1/baz.txt')]).toEqual([0, 1, 1]);
    expect(image.layerOf('dir1')).toBeUndefined();
  });

  it('overwrite-file: COPY sample.txt, then COPY new-sample.txt over it (both versions kept)', async () => {
    const image = await unpack(layerscanning('overwrite-file.tar'), (p) => p === 'sample.txt');
    expect(await tree(image.root)).toEqual(['sample.txt']);
    expect(await content(image, 'sample.txt')).toBe(await source('overwrite-file', 'new-sample.txt'));
    expect(image.layerOf('sample.txt')).toBe(1);
    const versions = image.versionsOf('sample.txt');
    expect(versions.map((v) => v.layer)).toEqual([0, 1]);
    expect(await readFile(versions[0]!.file!, 'utf8')).toBe(await source('overwrite-file', 'sample.txt'));
    expect(await readFile(versions[1]!.file!, 'utf8')).toBe(await source('overwrite-file', 'new-sample.txt'));
    expect(versions[0]!.file!.startsWith(image.versionsRoot + path.sep)).toBe(true);
    await image.remove();
    expect(await readdir(ws.dir)).toEqual([]);
  });

  it('permissions: COPY --chmod=0000 sample.txt: unpacked readable by the owner only', async () => {
    const image = await unpack(unpackData('permissions.tar'));
    expect(await content(image, 'sample.txt')).toBe(await source('permissions', 'sample.txt'));
    if (process.platform !== 'win32') expect((await lstat(path.join(image.root, 'sample.txt'))).mode & 0o777).toBe(0o600);
  });

  it('symlink-basic: links kept as links, each resolves to dir1/sample.txt', async () => {
    const image = await unpack(layerscanning('symlink-basic.tar'));
    expect(await tree(image.root)).toEqual([
      'dir1/',
      'dir1/absolute-symlink.txt -> sample.txt',
      'dir1/chain-symlink.txt -> absolute-symlink.txt',
      'dir1/relative-dot-symlink.txt -> sample.txt',
      'dir1/relative-symlink.txt -> sample.txt',
      'dir1/sample.txt',
    ]);
    expect(await content(image, 'dir1/sample.txt')).toBe('sample text\n');
    for (const link of ['absolute-symlink.txt', 'chain-symlink.txt', 'relative-dot-symlink.txt', 'relative-symlink.txt']) {
      expect(await resolved(image, `dir1/${link}`)).toBe('dir1/sample.txt');
      expect(image.layerOf(`dir1/${link}`)).toBe(0);
    }
  });

  it('symlinks: links across two layers, absolute, relative, chained, through `..`; attack links stay inside the root', async () => {
    const image = await unpack(unpackData('symlinks.tar'));
    expect(await tree(image.root)).toEqual([
      'dir1/',
      'dir1/absolute-symlink.txt -> sample.txt',
      'dir1/attack-symlink-absolute.txt -> ../secret.txt',
      'dir1/attack-symlink.txt -> ../secret.txt',
      'dir1/chain-symlink.txt -> absolute-symlink.txt',
      'dir1/relative-dot-symlink.txt -> sample.txt',
      'dir1/relative-symlink.txt -> sample.txt',
      'dir1/sample.txt',
      'dir2/',
      'dir2/dir3/',
      'dir2/dir3/absolute-chain-symlink.txt -> ../../dir1/chain-symlink.txt',
      'dir2/dir3/absolute-subfolder-symlink.txt -> ../../dir1/sample.txt',
      'dir2/dir3/absolute-symlink-inside-root.txt -> ../../dir1/sample.txt',
      'dir2/dir3/relative-subfolder-symlink.txt -> ../../dir1/sample.txt',
    ]);
    for (const p of ['dir1/absolute-symlink.txt', 'dir1/chain-symlink.txt', 'dir2/dir3/absolute-chain-symlink.txt', 'dir2/dir3/absolute-subfolder-symlink.txt', 'dir2/dir3/absolute-symlink-inside-root.txt', 'dir2/dir3/relative-subfolder-symlink.txt']) {
      expect(await resolved(image, p)).toBe('dir1/sample.txt');
    }
    // `../../secret.txt` and `/../secret.txt` stop at the root, as in the container: nothing there.
    expect(await resolved(image, 'dir1/attack-symlink.txt')).toBeNull();
    expect(await resolved(image, 'dir1/attack-symlink-absolute.txt')).toBeNull();
    expect(image.layerOf('dir1/sample.txt')).toBe(0);
    expect(image.layerOf('dir2/dir3/absolute-symlink-inside-root.txt')).toBe(1);
  });

  it('symlink-attack: links out of the root are kept pointing inside it; nothing is written beside it', async () => {
    const image = await unpack(layerscanning('symlink-attack.tar'));
    expect(await tree(image.root)).toEqual(['dir1/', 'dir1/attack-symlink-absolute.txt -> ../secret.txt', 'dir1/attack-symlink.txt -> ../secret.txt']);
    expect(await resolved(image, 'dir1/attack-symlink.txt')).toBeNull();
    expect(await resolved(image, 'dir1/attack-symlink-absolute.txt')).toBeNull();
    expect((await readdir(ws.dir)).sort()).toEqual(['root', 'root.versions']);
  });

  it.each([layerscanning('symlink-dangling.tar'), unpackData('dangling-symlinks.tar')])('dangling-symlinks (%s): links to a file the image lacks resolve to nothing', async (file) => {
    const image = await unpack(file);
    expect(await tree(image.root)).toEqual([
      'dir1/',
      'dir1/absolute-symlink.txt -> sample.txt',
      'dir1/chain-symlink.txt -> absolute-symlink.txt',
      'dir1/relative-dot-symlink.txt -> sample.txt',
      'dir1/relative-symlink.txt -> sample.txt',
      'dir2/',
      'dir2/dir3/',
      'dir2/dir3/absolute-chain-symlink.txt -> ../../dir1/chain-symlink.txt',
      'dir2/dir3/absolute-subfolder-symlink.txt -> ../../dir1/sample.txt',
      'dir2/dir3/relative-subfolder-symlink.txt -> ../../dir1/sample.txt',
    ]);
    for (const p of ['dir1/absolute-symlink.txt', 'dir1/chain-symlink.txt', 'dir2/dir3/absolute-chain-symlink.txt', 'dir2/dir3/relative-subfolder-symlink.txt']) expect(await resolved(image, p)).toBeNull();
    expect(image.layerOf('dir1/chain-symlink.txt')).toBe(0);
    expect(image.layerOf('dir2/dir3/absolute-chain-symlink.txt')).toBe(1);
    expect(image.files).toBe(0);
  });

  it('symlink-cycle: the links are kept; resolving them is refused', async () => {
    const image = await unpack(layerscanning('symlink-cycle.tar'));
    expect(await tree(image.root)).toEqual(['dir1/', 'dir1/absolute-symlink.txt -> sample.txt', 'dir1/chain-symlink.txt -> absolute-symlink.txt', 'dir1/sample.txt -> chain-symlink.txt']);
    for (const p of ['dir1/sample.txt', 'dir1/chain-symlink.txt', 'dir1/absolute-symlink.txt']) {
      const error = await resolveInImage(image.root, p).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImageError);
      expect((error as ImageError).code).toBe('symlink-loop');
      expect((error as ImageError).message).toContain('40');
    }
  });

  it('symlink-depth-exceeded: a chain of 7 links resolves (the limit is 40, as in Linux)', async () => {
    const image = await unpack(layerscanning('symlink-depth-exceeded.tar'));
    expect((await tree(image.root)).length).toBe(9);
    for (let i = 1; i <= 7; i++) expect(await resolved(image, `dir1/symlink${i}.txt`)).toBe('dir1/sample.txt');
    expect(await readFile((await resolveInImage(image.root, 'dir1/symlink7.txt'))!, 'utf8')).toBe('sample text\n');
  });

  it('an empty tar and a plain tar with links (escape.tar) are not images', async () => {
    for (const file of [layerscanning('empty.tar'), unpackData('escape.tar')]) {
      expect(await detectImage(file)).toBeNull();
      const error = await unpackImage(file, path.join(ws.dir, 'root')).catch((e: unknown) => e);
      expect((error as ImageError).code).toBe('not-image');
      expect(await readdir(ws.dir)).toEqual([]);
    }
  });

  it('platforms of a docker save: the config names one', async () => {
    expect(await imagePlatforms(layerscanning('basic.tar'))).toEqual(['linux/amd64']);
  });
});

describe('scalibr populatelayers.yml: the layer in which each lockfile version appeared', () => {
  it('added, deleted, re-added and edited in place across five layers', async () => {
    const spec = parse(await readFile(path.join(CORPUS, 'layerscanning/trace/testdata/populatelayers.yml'), 'utf8')) as { layers: Array<{ files: Record<string, string[] | null> }> };
    const layers = spec.layers.map(({ files }) => ({
      items: Object.entries(files).map(([name, packages]) => (name.startsWith('~') ? { name: `.wh.${name.slice(1)}`, data: '' } : { name, data: `${(packages ?? []).join('\n')}\n` })),
    }));
    const input = await ws.put('layers.tar', await asTar(await ociLayout({ layers })));
    const image = await unpackImage(input, path.join(ws.dir, 'root'), { keep: (p) => p.endsWith('.txt') });
    const history = async (p: string) => Promise.all(image.versionsOf(p).map(async (v) => [v.layer, v.file === null ? null : (await readFile(v.file, 'utf8')).trim().split('\n')]));
    expect(await history('foo.txt')).toEqual([
      [0, ['foo']],
      [4, ['foo', 'foo2']],
    ]);
    expect(await history('bar.txt')).toEqual([
      [0, ['bar']],
      [1, null],
      [3, ['bar']],
    ]);
    expect(await history('baz.txt')).toEqual([[2, ['baz']]]);
    expect([image.layerOf('foo.txt'), image.layerOf('bar.txt'), image.layerOf('baz.txt')]).toEqual([4, 3, 2]);
  });
});
