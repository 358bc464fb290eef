// `cairn feature`: writes a folder's feature file; `cairn scan` of that file finds the components
// the folder has (under the folder's name, as in a zip of it); bad arguments are refused in Chinese.
// Of a container image (OCI tar or folder, a multi-platform one by --platform, or pulled from a
// loopback registry with --image), `cairn scan` of the feature file gives what scanning the image
// gives: the same components, each with its layer, and the same image record.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featureCommand, FeatureUsageError } from '../../../cli/commands/feature.ts';
import { scanCommand } from '../../../cli/commands/scan.ts';
import { isFeatureFile } from '../../../server/engine/index.ts';
import { TRIVY } from '../../support/golden.ts';
import { registryToolsMissing, startRegistry, writeOciLayout, type BuiltImage, type TestRegistry } from '../../support/registry.ts';
import { IMAGE_LAYERS } from '../../support/image-feature.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-cli-feature-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface JsonOut { components: Array<{ purl: string }>; targets: Array<{ file: string; type: string }> }

describe('cairn feature', () => {
  it('writes a feature file that cairn scan reads like the folder', async () => {
    const folder = path.join(work, 'app');
    cpSync(path.join(TRIVY, 'repo', 'cargo'), folder, { recursive: true });
    writeFileSync(path.join(folder, 'main.rs'), 'fn main() {}\n');
    const out = path.join(work, 'app.zip');
    const { file, summary } = await featureCommand([folder, '--output', out]);
    expect(file).toBe(out);
    expect(await isFeatureFile(out)).toBe(true);
    expect(summary).toMatch(/特征文件已写入 .*app\.zip：3 个文件.*其中 2 个清单、锁文件与许可证文件/);
    const fromFeature = JSON.parse((await scanCommand([out])).output) as JsonOut;
    const fromFolder = JSON.parse((await scanCommand([folder])).output) as JsonOut;
    expect(fromFeature.components.map((c) => c.purl).sort()).toEqual(fromFolder.components.map((c) => c.purl).sort());
    expect(fromFeature.targets.map((t) => `${t.file}:${t.type}`)).toEqual(['app/Cargo.lock:cargo']);
  });

  it('refuses what is not a folder, and an output inside the folder', async () => {
    await expect(featureCommand([])).rejects.toThrow(FeatureUsageError);
    await expect(featureCommand([path.join(work, 'missing')])).rejects.toThrow(/找不到目录/);
    await expect(featureCommand([path.join(TRIVY, 'repo', 'cargo', 'Cargo.lock')])).rejects.toThrow(/不是目录/);
    const folder = path.join(work, 'inside');
    cpSync(path.join(TRIVY, 'repo', 'cargo'), folder, { recursive: true });
    await expect(featureCommand([folder, '-o', path.join(folder, 'f.zip')])).rejects.toThrow(/不能写在被扫描的目录/);
  });
});

interface ImageDoc {
  components: Array<{ purl: string; layer?: number }>;
  image: { reference: string | null; manifestDigest: string; platform: string; os: { id: string } | null; layers: Array<{ digest: string; components: number }> };
  problems: unknown[];
}
const layered = (doc: ImageDoc) => doc.components.map((c) => `${c.purl} ${c.layer}`).sort();

describe('cairn feature <image>', () => {
  let built: BuiltImage;
  let tarball: string;
  beforeAll(async () => {
    built = await writeOciLayout(path.join(work, 'layout'), 'shop/api:1.4', [{ architecture: 'amd64', layers: IMAGE_LAYERS }, { architecture: 'arm64', layers: IMAGE_LAYERS.slice(0, 2) }]);
    tarball = path.join(work, 'api.tar');
    execFileSync('tar', ['-cf', tarball, '-C', built.layoutDir, '.']);
  });

  it('of an OCI tar and its folder: cairn scan of the feature file gives the image\'s components, layers and record', async () => {
    const out = path.join(work, 'api.cairn-feature.zip');
    const { summary } = await featureCommand([tarball, '-o', out]);
    expect(summary).toMatch(/^镜像特征文件已写入 .*api\.cairn-feature\.zip：\d+ 个文件/);
    const fromFeature = JSON.parse((await scanCommand([out])).output) as ImageDoc;
    const fromImage = JSON.parse((await scanCommand([tarball])).output) as ImageDoc;
    expect(layered(fromFeature)).toEqual(layered(fromImage));
    expect(layered(fromFeature)).toContain('pkg:npm/left-pad@1.3.0 2');
    expect(fromFeature.image).toEqual(fromImage.image);
    expect(fromFeature.image).toMatchObject({ reference: 'shop/api:1.4', platform: 'linux/amd64', os: { id: 'debian' } });
    // The folder gives the same file; its default name is the folder's.
    const fromFolder = path.join(work, 'folder.zip');
    await featureCommand([built.layoutDir, '--output', fromFolder]);
    expect(layered(JSON.parse((await scanCommand([fromFolder])).output) as ImageDoc)).toEqual(layered(fromImage));
    // The CycloneDX of the feature file carries the layers as the image's does.
    const bom = (await scanCommand([out, '-f', 'cyclonedx'])).output;
    expect(bom).toContain('cairn:image:layer:digest');
  }, 60_000);

  it('--platform chooses the platform of a multi-platform image as the analysis does', async () => {
    const out = path.join(work, 'arm.zip');
    await featureCommand([tarball, '--platform', 'linux/arm64', '-o', out]);
    const doc = JSON.parse((await scanCommand([out])).output) as ImageDoc;
    expect(doc.image.platform).toBe('linux/arm64');
    expect(doc.image.layers).toHaveLength(2);
    expect(doc.components.map((c) => c.purl)).not.toContain('pkg:npm/left-pad@1.3.0');
    await expect(featureCommand([tarball, '--platform', 'linux/s390x', '-o', path.join(work, 's390x.zip')])).rejects.toThrow(FeatureUsageError);
    await expect(scanCommand([out, '--platform', 'linux/arm64'])).rejects.toThrow(/--platform 只用于容器镜像/);
  }, 60_000);

  it('refuses registry options without --image, a password on the command line, --platform for a folder', async () => {
    await expect(featureCommand([tarball, '--username', 'alice'])).rejects.toThrow(/--username 只用于 --image/);
    await expect(featureCommand(['--image', 'x/y:1', '--password', 'p'])).rejects.toThrow(/不接受命令行上的密码/);
    await expect(featureCommand(['--image', 'x/y:1', tarball])).rejects.toThrow(/只能给一个/);
    const folder = path.join(work, 'plain');
    cpSync(path.join(TRIVY, 'repo', 'cargo'), folder, { recursive: true });
    await expect(featureCommand([folder, '--platform', 'linux/arm64'])).rejects.toThrow(/--platform 只用于容器镜像/);
  });
});

const missing = registryToolsMissing();
if (missing && process.env.CI) throw new Error(missing);

describe.skipIf(missing !== null)('cairn feature --image from a registry with basic auth', () => {
  let registry: TestRegistry;
  let built: BuiltImage;
  beforeAll(async () => {
    built = await writeOciLayout(path.join(work, 'pushed'), 'shop/api:1.4', [{ architecture: 'amd64', layers: IMAGE_LAYERS }]);
    registry = await startRegistry({ auth: 'htpasswd', users: { alice: 'Feature-Secret-1' } });
    await registry.push(built.layoutDir, 'shop/api:1.4', 'shop/api', '1.4');
  }, 60_000);
  afterAll(async () => { await registry?.stop(); });

  it('pulls into a private temp folder, writes the feature file with the reference, removes the folder', async () => {
    const ref = `${registry.host}/shop/api:1.4`;
    const out = path.join(work, 'pulled.zip');
    const tmp = mkdtempSync(path.join(work, 'tmp-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    const lines: string[] = [];
    try {
      await featureCommand(['--image', ref, '--insecure-http', '--username', 'alice', '--password-stdin', '-o', out], { readStdin: async () => 'Feature-Secret-1\n', progress: (l) => lines.push(l) });
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
    expect(readdirSync(tmp)).toEqual([]);
    expect(lines.at(-1)).toBe(`已拉取 ${ref}，开始生成特征文件`);
    const doc = JSON.parse((await scanCommand([out])).output) as ImageDoc;
    expect(doc.image).toMatchObject({ reference: ref, manifestDigest: built.platforms['linux/amd64']!.manifest });
    expect(layered(doc)).toContain('pkg:npm/left-pad@1.3.0 2');
    await expect(featureCommand(['--image', ref, '--insecure-http', '--username', 'alice', '--password-stdin', '-o', path.join(work, 'x.zip')], { readStdin: async () => 'wrong' })).rejects.toThrow(FeatureUsageError);
  }, 60_000);
});
