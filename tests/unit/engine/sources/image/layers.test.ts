// Images built in the test: OCI layouts (folder, tar, gzip-compressed tar; single image,
// multi-platform and nested indexes) and docker save tars, with gzip, zstd and uncompressed layers,
// through the layer semantics (whiteouts, opaque folders, replacements, hard links, links in
// parent paths), the digest checks, the limits and the abort signal.
import { lstat, mkdir, readFile, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LayerApplier } from '../../../../../server/engine/sources/image/apply.ts';
import { ImageError, choosePlatform, detectImage, imagePlatforms, resolveInImage, unpackImage } from '../../../../../server/engine/sources/image/index.ts';
import type { SquashedImage } from '../../../../../server/engine/sources/image/index.ts';
import { resolveLimits } from '../../../../../server/engine/sources/limits.ts';
import { tarball, useWorkspace } from '../archives.ts';
import type { TarItem } from '../archives.ts';
import { asFolder, asTar, dockerSave, ociLayout } from './images.ts';
import type { Files, ImageSpec } from './images.ts';

const ws = useWorkspace();
const dest = () => path.join(ws.dir, 'out');
const SCALIBR = path.resolve(import.meta.dirname, '../../../../../../shared/corpora/images/scalibr/artifact/image/testfixtures');

async function layoutTar(files: Files): Promise<string> {
  return ws.put('image.tar', await asTar(files));
}

async function unpack(input: string, options?: Parameters<typeof unpackImage>[2]): Promise<SquashedImage> {
  return unpackImage(input, dest(), options);
}

const text = (image: SquashedImage, p: string) => readFile(path.join(image.root, p), 'utf8');
const exists = (image: SquashedImage, p: string) => lstat(path.join(image.root, p)).then(() => true, () => false);

/** The refusal, and nothing left beside the input: no destination, no versions, no work folder. */
async function refused(input: string, options?: Parameters<typeof unpackImage>[2]): Promise<ImageError> {
  const error = await unpackImage(input, dest(), options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ImageError);
  const left = (await readdir(ws.dir)).filter((n) => n.startsWith('out') || n.startsWith('.out'));
  expect(left).toEqual([]);
  return error as ImageError;
}

const file = (name: string, data: string, extra: Partial<TarItem> = {}): TarItem => ({ name, data, ...extra });
const dir = (name: string): TarItem => ({ name, type: 'directory' });
const symlink = (name: string, linkname: string): TarItem => ({ name, type: 'symlink', linkname });

const threeLayers: ImageSpec = {
  layers: [
    { compression: 'gzip', createdBy: 'ADD rootfs.tar /', items: [dir('etc'), file('etc/os-release', 'ID=demo\n'), dir('usr'), dir('usr/lib'), file('usr/lib/libz.so', 'zlib 1')] },
    { compression: 'zstd', createdBy: 'RUN upgrade', items: [file('usr/lib/libz.so', 'zlib 2'), file('app/main.js', 'console.log(1)\n', { mode: 0o755 })] },
    { compression: 'none', createdBy: 'COPY README /app/', items: [file('app/README', 'readme')] },
  ],
};

describe('unpackImage: OCI layouts, detected by content, in every form', () => {
  async function expectThreeLayers(image: SquashedImage) {
    expect(await text(image, 'etc/os-release')).toBe('ID=demo\n');
    expect(await text(image, 'usr/lib/libz.so')).toBe('zlib 2');
    expect(await text(image, 'app/README')).toBe('readme');
    expect([image.layerOf('etc/os-release'), image.layerOf('usr/lib/libz.so'), image.layerOf('app/main.js'), image.layerOf('/app/README')]).toEqual([0, 1, 1, 2]);
    expect(image.layerOf('missing')).toBeUndefined();
    expect(image.files).toBe(4);
    expect(image.bytes).toBe('ID=demo\n'.length + 'zlib 2'.length + 'console.log(1)\n'.length + 'readme'.length);
    const { info } = image;
    expect(info.layers.map((l) => l.mediaType)).toEqual(['application/vnd.oci.image.layer.v1.tar+gzip', 'application/vnd.oci.image.layer.v1.tar+zstd', 'application/vnd.oci.image.layer.v1.tar']);
    expect(info.layers.map((l) => l.createdBy)).toEqual(['ADD rootfs.tar /', 'RUN upgrade', 'COPY README /app/']);
    expect(info.layers.map((l) => l.created)).toEqual(['2026-01-02T00:00:00Z', '2026-01-02T00:00:01Z', '2026-01-02T00:00:02Z']);
    expect(info.layers.every((l) => /^sha256:[0-9a-f]{64}$/.test(l.digest) && /^sha256:[0-9a-f]{64}$/.test(l.diffId ?? ''))).toBe(true);
    expect(info.layers[2]!.digest).toBe(info.layers[2]!.diffId);
    expect(info.history).toHaveLength(4);
    expect(info.history[0]).toEqual({ createdBy: 'ENV PATH=/usr/bin', created: '2026-01-01T00:00:00Z', emptyLayer: true });
    expect(info.size).toBe(info.layers.reduce((n, l) => n + l.size, 0));
    expect(info.platform).toEqual({ os: 'linux', architecture: 'amd64' });
    expect(info.platforms).toEqual(['linux/amd64']);
    expect(info.created).toBe('2026-01-02T03:04:05Z');
    expect(info.config).toEqual({ env: ['PATH=/usr/bin'], entrypoint: null, cmd: ['/bin/sh'], labels: { maintainer: 'tests' }, workingDir: '/app', user: 'app' });
    expect(info.manifestDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(info.repoTags).toEqual(['latest']);
    if (process.platform !== 'win32') expect((await lstat(path.join(image.root, 'app/main.js'))).mode & 0o777).toBe(0o700);
  }

  it('a layout folder', async () => {
    const folder = await asFolder(path.join(ws.dir, 'layout'), await ociLayout(threeLayers));
    expect(await detectImage(folder)).toBe('oci-layout');
    await expectThreeLayers(await unpack(folder));
  });

  it('a layout packed as a tar', async () => {
    const tar = await layoutTar(await ociLayout(threeLayers));
    expect(await detectImage(tar)).toBe('oci-layout');
    await expectThreeLayers(await unpack(tar));
  });

  it('a layout packed as a gzip-compressed tar, named nothing like one', async () => {
    const input = await ws.put('upload.bin', gzipSync(await asTar(await ociLayout(threeLayers))));
    expect(await detectImage(input)).toBe('oci-layout');
    await expectThreeLayers(await unpack(input));
    expect((await readdir(ws.dir)).sort()).toEqual(['out', 'out.versions', 'upload.bin']);
  });

  it('progress: one report per layer and one at the end', async () => {
    const events: Array<{ layer: number; layers: number }> = [];
    await unpack(await layoutTar(await ociLayout(threeLayers)), { onProgress: ({ layer, layers }) => events.push({ layer, layers }) });
    expect(events).toEqual([0, 1, 2, 3].map((layer) => ({ layer, layers: 3 })));
  });

  it('not an image: a plain tar, a gzip of something else, a random folder', async () => {
    const plain = await ws.put('plain.tar', await asTar(new Map([['manifest.json', Buffer.from('{"name":"web app"}')]])));
    const gz = await ws.put('x.gz', gzipSync(Buffer.from('hello')));
    for (const input of [plain, gz, ws.dir]) expect(await detectImage(input)).toBeNull();
    expect((await refused(plain)).code).toBe('not-image');
    expect((await refused(gz)).code).toBe('not-image');
  });
});

describe('platforms', () => {
  const images: ImageSpec[] = [
    { platform: { os: 'linux', architecture: 'amd64' }, layers: [{ items: [file('arch', 'amd64')] }] },
    { platform: { os: 'linux', architecture: 'arm64', variant: 'v8' }, layers: [{ items: [file('arch', 'arm64')] }] },
    { platform: { os: 'linux', architecture: 'arm', variant: 'v7' }, layers: [{ items: [file('arch', 'armv7')] }] },
  ];

  it('chooses among the platforms an input offers as the unpack does, naming them when none fits', () => {
    const offered = ['linux/amd64', 'linux/arm64/v8', 'linux/arm/v7'];
    expect(choosePlatform(offered, undefined)).toBe('linux/amd64');
    expect(choosePlatform(offered, 'linux/arm64')).toBe('linux/arm64/v8');
    expect(choosePlatform(offered, 'linux/arm/v7')).toBe('linux/arm/v7');
    expect(choosePlatform(['linux/s390x'], undefined)).toBe('linux/s390x');
    expect(() => choosePlatform(offered, 'linux/s390x')).toThrow('镜像中没有 linux/s390x 平台的镜像，可用平台：linux/amd64、linux/arm64/v8、linux/arm/v7');
    expect(() => choosePlatform(['linux/arm64', 'linux/s390x'], undefined)).toThrow(/没有 linux\/amd64 平台/);
  });

  it.each([false, true])('a multi-platform index (nested: %s): linux/amd64 by default, the platform asked for otherwise', async (nested) => {
    const tar = await layoutTar(await ociLayout(images, { nested }));
    expect(await imagePlatforms(tar)).toEqual(['linux/amd64', 'linux/arm64/v8', 'linux/arm/v7']);
    let image = await unpack(tar);
    expect(await text(image, 'arch')).toBe('amd64');
    expect(image.info.platforms).toEqual(['linux/amd64', 'linux/arm64/v8', 'linux/arm/v7']);
    await image.remove();
    image = await unpack(tar, { platform: 'linux/arm64' });
    expect(await text(image, 'arch')).toBe('arm64');
    expect(image.info.platform).toEqual({ os: 'linux', architecture: 'arm64', variant: 'v8' });
    await image.remove();
    image = await unpack(tar, { platform: 'linux/arm/v7' });
    expect(await text(image, 'arch')).toBe('armv7');
  });

  it('a platform the image lacks is refused, naming those it has', async () => {
    const tar = await layoutTar(await ociLayout(images));
    const error = await refused(tar, { platform: 'linux/s390x' });
    expect(error.code).toBe('platform');
    expect(error.message).toContain('linux/s390x');
    expect(error.message).toContain('linux/amd64、linux/arm64/v8、linux/arm/v7');
    expect((await refused(tar, { platform: 'linux/arm/v6' })).code).toBe('platform');
  });

  it('an image of one platform is taken whatever it is; asking for another is refused', async () => {
    const tar = await layoutTar(await ociLayout([images[1]!]));
    const image = await unpack(tar);
    expect(await text(image, 'arch')).toBe('arm64');
    await image.remove();
    const error = await refused(await layoutTar(await ociLayout(images[2]!)), { platform: 'linux/amd64' });
    expect(error.message).toContain('linux/arm/v7');
  });
});

describe('what docker save writes since docker 25 (an OCI layout with manifest.json)', () => {
  const read = (files: Files, name: string) => JSON.parse(files.get(name)!.toString('utf8')) as Record<string, unknown> & { manifests: Array<{ digest: string; platform?: { architecture: string } }> };
  const blobName = (digest: string) => `blobs/sha256/${digest.slice(7)}`;

  it('the tags come from manifest.json; the layout is read as OCI', async () => {
    const files = await ociLayout(threeLayers);
    const manifest = read(files, blobName(read(files, 'index.json').manifests[0]!.digest)) as unknown as { config: { digest: string }; layers: Array<{ digest: string }> };
    files.set('manifest.json', Buffer.from(JSON.stringify([{ Config: blobName(manifest.config.digest), RepoTags: ['app:2.0'], Layers: manifest.layers.map((l) => blobName(l.digest)) }])));
    const tar = await layoutTar(files);
    expect(await detectImage(tar)).toBe('oci-layout');
    const image = await unpack(tar);
    expect(image.info.repoTags).toEqual(['app:2.0']);
    expect(await text(image, 'usr/lib/libz.so')).toBe('zlib 2');
  });

  it('a multi-platform index with only some platforms saved: those are the platforms', async () => {
    const files = await ociLayout([
      { platform: { os: 'linux', architecture: 'amd64' }, layers: [{ items: [file('arch', 'amd64')] }] },
      { platform: { os: 'linux', architecture: 'arm64', variant: 'v8' }, layers: [{ items: [file('arch', 'arm64')] }] },
    ]);
    const arm = read(files, 'index.json').manifests.find((m) => m.platform?.architecture === 'arm64')!;
    files.delete(blobName(arm.digest));
    const tar = await layoutTar(files);
    expect(await imagePlatforms(tar)).toEqual(['linux/amd64']);
    expect(await text(await unpack(tar), 'arch')).toBe('amd64');
  });

  it('a manifest of a media type we do not read (docker schema 1) is refused as such', async () => {
    const files = await ociLayout(threeLayers);
    const index = read(files, 'index.json');
    files.set('index.json', Buffer.from(JSON.stringify({ ...index, manifests: index.manifests.map((m) => ({ ...m, mediaType: 'application/vnd.docker.distribution.manifest.v1+prettyjws' })) })));
    const error = await refused(await layoutTar(files));
    expect(error.code).toBe('unsupported');
    expect(error.message).toContain('application/vnd.docker.distribution.manifest.v1+prettyjws');
  });

  it('a truncated gzip-compressed image is refused as damaged', async () => {
    const whole = gzipSync(await asTar(await ociLayout(threeLayers)));
    const error = await refused(await ws.put('cut.tgz', whole.subarray(0, whole.length - 200)));
    expect(error.code).toBe('corrupt');
  });
});

describe('layer semantics (as overlayfs shows the merged tree)', () => {
  it('delete-file (scalibr Dockerfile): COPY sample.txt, RUN rm sample.txt: gone', async () => {
    const sample = await readFile(path.join(SCALIBR, 'delete-file/sample.txt'), 'utf8');
    const tar = await layoutTar(await ociLayout({ layers: [{ items: [file('etc/alpine-release', '3.20')] }, { items: [file('sample.txt', sample)] }, { items: [file('.wh.sample.txt', '')] }] }));
    const image = await unpack(tar, { keep: (p) => p === 'sample.txt' });
    expect(await exists(image, 'sample.txt')).toBe(false);
    expect(await exists(image, '.wh.sample.txt')).toBe(false);
    expect(image.layerOf('sample.txt')).toBeUndefined();
    expect(image.versionsOf('sample.txt').map((v) => [v.layer, v.file === null])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('recreate-file (scalibr Dockerfile): COPY, RUN rm, COPY again: there, from the last layer, three versions', async () => {
    const sample = await readFile(path.join(SCALIBR, 'recreate-file/sample.txt'), 'utf8');
    const tar = await layoutTar(await ociLayout({ layers: [{ items: [file('bin/sh', 'sh')] }, { items: [file('sample.txt', sample)] }, { items: [file('.wh.sample.txt', '')] }, { items: [file('sample.txt', sample)] }] }));
    const image = await unpack(tar, { keep: (p) => p.endsWith('.txt') });
    expect(await text(image, 'sample.txt')).toBe(sample);
    expect(image.layerOf('sample.txt')).toBe(3);
    const versions = image.versionsOf('sample.txt');
    expect(versions.map((v) => [v.layer, v.file === null])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
    expect(await readFile(versions[0]!.file!, 'utf8')).toBe(sample);
  });

  it('a whiteout removes a lower folder with all it holds; one in the same layer as the entry does not remove it', async () => {
    const tar = await layoutTar(
      await ociLayout({
        layers: [
          { items: [dir('opt'), dir('opt/tool'), file('opt/tool/a', 'a'), file('opt/tool/sub/b', 'b'), file('keep', 'k')] },
          { items: [file('opt/.wh.tool', ''), file('new', 'n'), file('.wh.new', '')] },
        ],
      }),
    );
    const image = await unpack(tar);
    expect(await exists(image, 'opt/tool')).toBe(false);
    expect(await readdir(path.join(image.root, 'opt'))).toEqual([]);
    expect(await text(image, 'new')).toBe('n');
    expect(await text(image, 'keep')).toBe('k');
  });

  it('an opaque folder hides the lower contents, keeping what its own layer put there (marker before or after)', async () => {
    const tar = await layoutTar(
      await ociLayout({
        layers: [
          { items: [dir('etc'), dir('etc/conf.d'), file('etc/conf.d/old', 'old'), file('etc/conf.d/deep/x', 'x'), file('etc/hosts', 'h')] },
          { items: [dir('etc/conf.d'), file('etc/conf.d/first', '1'), file('etc/conf.d/.wh..wh..opq', ''), file('etc/conf.d/second', '2')] },
        ],
      }),
    );
    const image = await unpack(tar);
    expect((await readdir(path.join(image.root, 'etc/conf.d'))).sort()).toEqual(['first', 'second']);
    expect(await text(image, 'etc/hosts')).toBe('h');
  });

  it('a file replaces a folder, a folder replaces a file, a link replaces a folder', async () => {
    const tar = await layoutTar(
      await ociLayout({
        layers: [
          { items: [file('a/inner', 'i'), file('b', 'b'), file('c/inner', 'c')] },
          { items: [file('a', 'now a file'), file('b/inner', 'now a folder'), symlink('c', 'a')] },
        ],
      }),
    );
    const image = await unpack(tar);
    expect(await text(image, 'a')).toBe('now a file');
    expect(await text(image, 'b/inner')).toBe('now a folder');
    expect(await readlink(path.join(image.root, 'c'))).toBe('a');
    expect([image.layerOf('a'), image.layerOf('b/inner'), image.layerOf('c'), image.layerOf('a/inner')]).toEqual([1, 1, 1, undefined]);
    expect(image.files).toBe(2);
  });

  it('a hard link to a path of a lower layer has its content, attributed to its own layer', async () => {
    const tar = await layoutTar(
      await ociLayout({
        layers: [{ items: [file('usr/bin/python3.12', 'python')] }, { items: [{ name: 'usr/bin/python3', type: 'link', linkname: 'usr/bin/python3.12' }, { name: 'dangling', type: 'link', linkname: 'nowhere' }] }],
      }),
    );
    const image = await unpack(tar);
    expect(await text(image, 'usr/bin/python3')).toBe('python');
    expect([image.layerOf('usr/bin/python3.12'), image.layerOf('usr/bin/python3')]).toEqual([0, 1]);
    expect(image.notes.map((n) => n.path)).toEqual(['dangling']);
    expect(image.notes[0]!.reason).toContain('硬链接目标');
  });

  it('a link in a lower layer is followed inside the root when a later entry is written through it', async () => {
    const tar = await layoutTar(
      await ociLayout({
        layers: [{ items: [dir('usr/lib'), symlink('lib', 'usr/lib'), symlink('lib64', '/usr/lib')] }, { items: [file('lib/libc.so', 'libc'), file('lib64/ld.so', 'ld')] }],
      }),
    );
    const image = await unpack(tar);
    expect(await text(image, 'usr/lib/libc.so')).toBe('libc');
    expect(await text(image, 'usr/lib/ld.so')).toBe('ld');
    expect(image.layerOf('usr/lib/libc.so')).toBe(1);
    expect(await readlink(path.join(image.root, 'lib64'))).toBe('usr/lib');
    expect(await resolveInImage(image.root, 'lib64/ld.so')).toBe(path.join(image.root, 'usr/lib/ld.so'));
  });

  it('an entry written through a link that climbs out of the root is refused; nothing lands outside', async () => {
    const tar = await layoutTar(await ociLayout({ layers: [{ items: [symlink('lib', '../../../..')] }, { items: [file('lib/escaped.txt', 'pwned')] }] }));
    const error = await refused(tar);
    expect(error.code).toBe('traversal');
    expect(error.message).toContain('第 2 层');
    expect(error.message).toContain('lib/escaped.txt');
    expect((await readdir(ws.dir)).sort()).toEqual(['image.tar']);
    const names = await readdir(path.dirname(ws.dir));
    expect(names).not.toContain('escaped.txt');
  });

  it('an entry named with `..` above the root is refused', async () => {
    const tar = await layoutTar(await ociLayout({ layers: [{ items: [file('a/../../evil', 'x')] }] }));
    expect((await refused(tar)).code).toBe('traversal');
  });

  it('device files and fifos are skipped with a note', async () => {
    const tar = await layoutTar(await ociLayout({ layers: [{ items: [{ name: 'dev/null', type: 'character-device' }, { name: 'run/fifo', type: 'fifo' }, file('ok', 'ok')] }] }));
    const image = await unpack(tar);
    expect(image.notes.map((n) => n.path)).toEqual(['dev/null', 'run/fifo']);
    expect(image.notes[0]!.reason).toContain('设备文件');
    expect(await exists(image, 'dev/null')).toBe(false);
    expect(image.files).toBe(1);
  });

  it('many small files written while the next entries are read: duplicates, replacements and removals still in order', async () => {
    const many = Array.from({ length: 300 }, (_, i) => file(`lib/m${i % 7}/f${i}`, `v1-${i}`));
    const tar = await layoutTar(
      await ociLayout({
        layers: [
          { items: [...many, file('lib/m0/f0', 'dup'), file('lib/m1', 'file now'), { name: 'lib/hard', type: 'link', linkname: 'lib/m2/f2' }] },
          { items: [file('lib/m2/f2', 'v2'), file('lib/m3/.wh.f3', ''), file('lib/.wh.m4', '')] },
        ],
      }),
    );
    const image = await unpack(tar);
    expect(await text(image, 'lib/m0/f0')).toBe('dup');
    expect(await text(image, 'lib/m1')).toBe('file now');
    expect(await text(image, 'lib/hard')).toBe('v1-2');
    expect(await text(image, 'lib/m2/f2')).toBe('v2');
    expect(await exists(image, 'lib/m3/f3')).toBe(false);
    expect(await exists(image, 'lib/m3/f10')).toBe(true);
    expect(await exists(image, 'lib/m4')).toBe(false);
    expect(await text(image, 'lib/m5/f299')).toBe('v1-299');
    const survivors = many.filter((f) => !/^lib\/(m1|m4)\//.test(f.name) && f.name !== 'lib/m3/f3').length;
    expect(image.files).toBe(survivors + 2);
    expect([image.layerOf('lib/m2/f2'), image.layerOf('lib/m5/f5'), image.layerOf('lib/hard')]).toEqual([1, 0, 0]);
  });

  it('a name no file system holds (a segment over 255 bytes) is skipped with a note, the rest applied', async () => {
    const long = 'x'.repeat(256);
    const tar = await layoutTar(await ociLayout({ layers: [{ items: [{ name: `${long}/a`, data: 'a', pax: { path: `${long}/a` } } as TarItem, file('ok', 'ok')] }] }));
    const image = await unpack(tar);
    expect(image.notes).toHaveLength(1);
    expect(image.notes[0]!.reason).toContain('255');
    expect(await text(image, 'ok')).toBe('ok');
  });

  it('resolveInImage: `..` stops at the root, links nested 40 deep resolve, 41 are refused', async () => {
    const chain = (n: number) => Array.from({ length: n }, (_, i) => symlink(`l${i + 1}`, i === 0 ? 'target' : `/l${i}`));
    const tar = await layoutTar(await ociLayout({ layers: [{ items: [file('target', 't'), ...chain(41)] }] }));
    const image = await unpack(tar);
    expect(await resolveInImage(image.root, '../../target')).toBe(path.join(image.root, 'target'));
    expect(await resolveInImage(image.root, 'l40')).toBe(path.join(image.root, 'target'));
    expect(((await resolveInImage(image.root, 'l41').catch((e: unknown) => e)) as ImageError).code).toBe('symlink-loop');
    expect(await resolveInImage(image.root, 'target/below')).toBeNull();
    expect(await resolveInImage(image.root, '')).toBe(image.root);
  });

  it('package databases: every version a layer wrote is kept, and removals noted', async () => {
    const status = (pkgs: string[]) => pkgs.map((p) => `Package: ${p}\nStatus: install ok installed\nVersion: 1\n`).join('\n');
    const tar = await layoutTar(
      await ociLayout({
        layers: [
          { items: [file('var/lib/dpkg/status', status(['base-files']))] },
          { items: [file('usr/bin/curl', 'curl')] },
          { items: [file('var/lib/dpkg/status', status(['base-files', 'curl']))] },
          { items: [dir('var/lib'), file('var/lib/.wh.dpkg', '')] },
        ],
      }),
    );
    const image = await unpack(tar, { keep: (p) => p === 'var/lib/dpkg/status' });
    const versions = image.versionsOf('var/lib/dpkg/status');
    expect(versions.map((v) => [v.layer, v.file === null])).toEqual([
      [0, false],
      [2, false],
      [3, true],
    ]);
    expect(await readFile(versions[1]!.file!, 'utf8')).toContain('Package: curl');
    expect(await readFile(versions[0]!.file!, 'utf8')).not.toContain('curl');
    expect(image.versionsOf('usr/bin/curl')).toEqual([]);
  });
});

describe('docker save tars built here', () => {
  const spec: ImageSpec = { layers: [{ items: [file('a', 'a1'), file('b', 'b')] }, { items: [file('a', 'a2'), file('.wh.b', '')] }] };

  it('legacy layout, plain, gzip-compressed and unpacked into a folder', async () => {
    const files = await dockerSave(spec, 'demo:1.0');
    for (const input of [await ws.put('save.tar', await asTar(files)), await ws.put('save.tgz', gzipSync(await asTar(files))), await asFolder(path.join(ws.dir, 'saved'), files)]) {
      expect(await detectImage(input)).toBe('docker-archive');
      const image = await unpack(input);
      expect(await text(image, 'a')).toBe('a2');
      expect(await exists(image, 'b')).toBe(false);
      expect(image.info.repoTags).toEqual(['demo:1.0']);
      expect(image.info.layers.map((l) => l.createdBy)).toEqual(['RUN step 0', 'RUN step 1']);
      await image.remove();
    }
  });

  it('a layer saved twice is a link to the first layer.tar, as docker save writes it', async () => {
    const same = { items: [file('same', 'same')] };
    const files = await dockerSave({ layers: [same, { items: [file('other', 'o')] }, same] });
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Array<{ Layers: string[] }>;
    const [first, , third] = manifest[0]!.Layers;
    const items: TarItem[] = [...files].filter(([name]) => name !== third).map(([name, data]) => ({ name, data }));
    items.push({ name: third!, type: 'symlink', linkname: `../${first}` });
    const image = await unpack(await ws.put('save.tar', await tarball(items)));
    expect(image.layerOf('same')).toBe(2);
    expect(image.info.layers[2]!.digest).toBe(image.info.layers[0]!.digest);
  });

  it('a save of several images: the first unless one is named (as tagged, docker.io/library/ or not)', async () => {
    const a = await dockerSave({ layers: [{ items: [file('which', 'a')] }] }, 'app:1');
    const b = await dockerSave({ layers: [{ items: [file('which', 'b')] }] }, 'nginx:1.25');
    const both = new Map([...a, ...b]);
    both.set('manifest.json', Buffer.from(JSON.stringify([...JSON.parse(a.get('manifest.json')!.toString('utf8')), ...JSON.parse(b.get('manifest.json')!.toString('utf8'))])));
    const input = await ws.put('two.tar', await asTar(both));
    let image = await unpack(input);
    expect(await text(image, 'which')).toBe('a');
    expect(image.notes).toHaveLength(1);
    expect(image.notes[0]!.reason).toContain('nginx:1.25');
    await image.remove();
    for (const name of ['nginx:1.25', 'docker.io/library/nginx:1.25']) {
      image = await unpack(input, { image: name });
      expect(await text(image, 'which')).toBe('b');
      expect(image.info.repoTags).toEqual(['nginx:1.25']);
      expect(image.notes).toEqual([]);
      await image.remove();
    }
    const error = await refused(input, { image: 'redis' });
    expect(error.code).toBe('reference');
    expect(error.message).toContain('app:1、nginx:1.25');
  });

  it("a layer.tar that does not match the config's diff_id is refused, naming the layer", async () => {
    const error = await refused(await ws.put('save.tar', await asTar(await dockerSave({ layers: [spec.layers[0]!, { ...spec.layers[1]!, tamper: true }] }))));
    expect(error.code).toBe('digest');
    expect(error.message).toContain('第 2 层');
    expect(error.message).toContain('diff_id');
  });
});

describe('refusals leave nothing behind', () => {
  it('a blob whose content does not match its digest', async () => {
    const error = await refused(await layoutTar(await ociLayout({ layers: [{ items: [file('a', 'a')] }, { items: [file('b', 'b')], compression: 'zstd', tamper: true }] })));
    expect(error.code).toBe('digest');
    expect(error.message).toMatch(/第 2 层（sha256:[0-9a-f]{12}）/);
  });

  it('a manifest or config blob that does not match its digest', async () => {
    const files = await ociLayout(threeLayers);
    const index = JSON.parse(files.get('index.json')!.toString('utf8')) as { manifests: Array<{ digest: string }> };
    const name = `blobs/sha256/${index.manifests[0]!.digest.slice(7)}`;
    const manifest = JSON.parse(files.get(name)!.toString('utf8')) as { config: { digest: string } };
    const configName = `blobs/sha256/${manifest.config.digest.slice(7)}`;
    const tampered = new Map(files).set(configName, Buffer.from(files.get(configName)!.toString('utf8').replace('PATH=/usr/bin', 'PATH=/evil')));
    let error = await refused(await layoutTar(tampered));
    expect(error.code).toBe('digest');
    expect(error.message).toContain('配置');
    files.set(name, Buffer.from(files.get(name)!.toString('utf8').replace('"schemaVersion":2', '"schemaVersion": 2')));
    error = await refused(await layoutTar(files));
    expect(error.code).toBe('digest');
    expect(error.message).toContain('镜像清单');
  });

  it('a docker save whose config does not match the digest in its name', async () => {
    const files = await dockerSave(threeLayers);
    const configName = [...files.keys()].find((n) => n.endsWith('.json') && n !== 'manifest.json')!;
    files.set(configName, Buffer.from(files.get(configName)!.toString('utf8').replace('PATH=/usr/bin', 'PATH=/evil')));
    expect((await refused(await ws.put('save.tar', await asTar(files)))).code).toBe('digest');
  });

  it('the platforms of something that is no image: refused', async () => {
    const error = await imagePlatforms(await ws.put('x.bin', Buffer.from('not an image at all'))).catch((e: unknown) => e);
    expect((error as ImageError).code).toBe('not-image');
  });

  it('a wrong diff_id', async () => {
    const error = await refused(await layoutTar(await ociLayout({ layers: [{ items: [file('a', 'a')], wrongDiffId: true }] })));
    expect(error.code).toBe('digest');
    expect(error.message).toContain('第 1 层');
  });

  it('an unknown layer media type', async () => {
    const error = await refused(await layoutTar(await ociLayout({ layers: [{ items: [file('a', 'a')] }, { items: [file('b', 'b')], mediaType: 'application/vnd.example.layer.v1.tar+lz4' }] })));
    expect(error.code).toBe('unsupported');
    expect(error.message).toContain('第 2 层');
    expect(error.message).toContain('application/vnd.example.layer.v1.tar+lz4');
  });

  it('a non-distributable layer: applied when its blob is there, noted when it is not', async () => {
    const foreign = 'application/vnd.oci.image.layer.nondistributable.v1.tar+gzip';
    let image = await unpack(await layoutTar(await ociLayout({ layers: [{ items: [file('base', 'base')], mediaType: foreign }, { items: [file('app', 'app')] }] })));
    expect(await text(image, 'base')).toBe('base');
    await image.remove();
    image = await unpack(await layoutTar(await ociLayout({ layers: [{ items: [file('base', 'base')], mediaType: foreign, omit: true }, { items: [file('app', 'app')] }] })));
    expect(await exists(image, 'base')).toBe(false);
    expect(await text(image, 'app')).toBe('app');
    expect(image.notes[0]!.reason).toContain('不可分发层');
  });

  it('a missing layer blob', async () => {
    const files = await ociLayout({ layers: [{ items: [file('a', 'a')] }] });
    const layerBlob = [...files.keys()].find((n) => n.startsWith('blobs/') && files.get(n)![0] === 0x1f)!;
    files.delete(layerBlob);
    expect((await refused(await layoutTar(files))).code).toBe('missing');
  });

  it.each([
    ['total bytes', { maxTotalBytes: 1000 }, 'too-large'],
    ['one file', { maxFileBytes: 1000 }, 'too-large'],
    ['file count', { maxFiles: 3 }, 'too-many-files'],
    ['compression ratio', { maxRatio: 10, ratioGraceBytes: 1024 }, 'ratio'],
  ] as const)('limits: %s', async (_, limits, code) => {
    const tar = await layoutTar(await ociLayout({ layers: [{ items: [file('zeros', '\0'.repeat(64 * 1024)), file('a', 'a'), file('b', 'b'), file('c', 'c')] }] }));
    const error = await refused(tar, { limits });
    expect(error.code).toBe(code);
    expect(error.message).toContain('上限');
  });

  it('an abort', async () => {
    const controller = new AbortController();
    const tar = await layoutTar(await ociLayout(threeLayers));
    const error = await unpackImage(tar, dest(), { signal: controller.signal, onProgress: ({ layer }) => layer === 1 && controller.abort(new Error('stopped')) }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('stopped');
    expect((await readdir(ws.dir)).sort()).toEqual(['image.tar']);
  });

  it('a destination that is not empty', async () => {
    const tar = await layoutTar(await ociLayout(threeLayers));
    await asFolder(dest(), new Map([['x', Buffer.from('x')]]));
    const error = await unpackImage(tar, dest()).catch((e: unknown) => e);
    expect((error as ImageError).code).toBe('destination');
    expect(await readdir(dest())).toEqual(['x']);
  });
});

describe('LayerApplier on Windows', () => {
  it('a name Windows reads as folders or devices (`..\\..\\x`, `aux`, `a:b`) is skipped with a note', async () => {
    const root = path.join(ws.dir, 'root');
    await mkdir(root);
    const budget = { limits: resolveLimits(), signal: new AbortController().signal, entries: 0, bytes: 0, notes: [] as Array<{ path: string; reason: string }> };
    const applier = new LayerApplier(root, path.join(ws.dir, 'versions'), budget);
    applier.windows = true;
    await applier.apply(0, '第 1 层', Readable.from([await tarball([file('..\\..\\x', 'x'), file('dev/aux', 'a'), file('a:b', 'c'), file('ok', 'ok')])]));
    expect(budget.notes.map((n) => n.path)).toEqual(['..\\..\\x', 'dev/aux', 'a:b']);
    expect(await readdir(root)).toEqual(['ok']);
    expect(applier.attribution().files).toBe(1);
  });
});
