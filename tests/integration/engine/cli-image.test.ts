// `cairn scan` of container images: an OCI layout tar and folder told by content, analysed as an
// image (packages a later layer removed are gone, each component with the layer that brought it),
// in JSON, CycloneDX 1.6 (valid, the image as metadata.component of type container, its operating
// system a component of its own holding the OS packages) and SPDX 2.3 (the same as packages);
// `cairn scan --image` pulling from a loopback registry with basic auth, the password from
// standard input and never printed, the temp folder removed.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanCommand, UsageError, type ScanIo } from '../../../cli/commands/scan.ts';
import { loadSbom } from '../../../server/engine/index.ts';
import { registryToolsMissing, startRegistry, writeOciLayout, type BuiltImage, type TestRegistry } from '../../support/registry.ts';

const pkg = (name: string, version: string) => `Package: ${name}\nStatus: install ok installed\nArchitecture: amd64\nVersion: ${version}\n`;
const status = (...stanzas: string[]) => stanzas.join('\n');
const OS_RELEASE = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n';

/** Base system; then curl and an npm package; then a layer that purges `less` and deletes a file. */
const LAYERS: Record<string, string>[] = [
  { 'etc/os-release': OS_RELEASE, 'var/lib/dpkg/status': status(pkg('base-files', '12.4+deb12u5'), pkg('less', '590-2.1~deb12u2')), 'etc/motd': 'hi\n' },
  {
    'var/lib/dpkg/status': status(pkg('base-files', '12.4+deb12u5'), pkg('less', '590-2.1~deb12u2'), pkg('curl', '7.88.1-10+deb12u5')),
    'app/node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', version: '1.3.0', license: 'WTFPL' }),
  },
  { 'var/lib/dpkg/status': status(pkg('base-files', '12.4+deb12u5'), pkg('curl', '7.88.1-10+deb12u5')), 'etc/.wh.motd': '' },
];
const BASE = 'pkg:deb/debian/base-files@12.4+deb12u5?arch=amd64&distro=debian-12';
const CURL = 'pkg:deb/debian/curl@7.88.1-10+deb12u5?arch=amd64&distro=debian-12';
const LEFT_PAD = 'pkg:npm/left-pad@1.3.0';

const PASSWORD = 'Cli-Secret-pa55word';
const SPDX_SCHEMA = process.env.CAIRN_SPDX_SCHEMA || path.join(process.cwd(), '..', 'shared', 'schemas', 'spdx-schema.json');

interface Component { purl: string; layer?: number; properties?: Array<{ name: string; value: string }>; annotations?: Array<{ comment: string }> }
interface JsonDoc {
  root: string;
  components: Component[];
  image: { reference: string | null; manifestDigest: string; platform: string; os: { id: string } | null; layers: Array<{ index: number; digest: string; components: number }> };
  problems: unknown[];
}

let work: string;
let built: BuiltImage;
let layoutTar: string;
beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'cairn-cli-image-'));
  built = await writeOciLayout(path.join(work, 'layout'), 'shop/api:1.4', [{ architecture: 'amd64', layers: LAYERS }]);
  layoutTar = path.join(work, 'api.tar');
  execFileSync('tar', ['-cf', layoutTar, '-C', built.layoutDir, '.']);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The purl → layer index pairs of a JSON document. */
const layersOf = (doc: JsonDoc) => Object.fromEntries(doc.components.map((c) => [c.purl, c.layer]));

/** Runs `fn` with os.tmpdir() pointing at a fresh folder, and gives what was left in it. */
async function inOwnTemp<T>(fn: () => Promise<T>): Promise<{ value: T; left: string[] }> {
  const dir = mkdtempSync(path.join(work, 'tmp-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const value = await fn();
    return { value, left: readdirSync(dir) };
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}

describe('cairn scan <image>', () => {
  it('an OCI layout tar is told by content and analysed as an image: final packages, each with its layer', async () => {
    const { value, left } = await inOwnTemp(() => scanCommand([layoutTar]));
    expect(left).toEqual([]);
    const doc = JSON.parse(value.output) as JsonDoc;
    const layers = built.platforms['linux/amd64']!.layers;
    expect(doc.image).toMatchObject({ reference: 'shop/api:1.4', manifestDigest: built.platforms['linux/amd64']!.manifest, platform: 'linux/amd64', os: { id: 'debian' } });
    expect(doc.image.layers.map((l) => [l.index, l.digest, l.components])).toEqual([[0, layers[0], 1], [1, layers[1], 2], [2, layers[2], 0]]);
    // less was purged by the last layer; base-files is from the first though every layer rewrote the status file.
    expect(layersOf(doc)).toEqual({ [BASE]: 0, [CURL]: 1, [LEFT_PAD]: 1 });
    expect(doc.problems).toEqual([]);
    expect(value.summary).toMatch(/^扫描完成：镜像 shop\/api:1\.4（linux\/amd64，Debian GNU\/Linux 12 \(bookworm\)，3 层），.*3 个组件/);
  });

  it('the layout folder gives the same; CycloneDX carries the layer and the image as a container', async () => {
    const fromFolder = JSON.parse((await scanCommand([built.layoutDir])).output) as JsonDoc;
    expect(layersOf(fromFolder)).toEqual({ [BASE]: 0, [CURL]: 1, [LEFT_PAD]: 1 });

    const { output } = await scanCommand([built.layoutDir, '--format', 'cyclonedx']);
    const { validateCycloneDx } = await loadSbom();
    const verdict = await validateCycloneDx(output, 'json');
    expect(verdict.errors).toEqual([]);
    const bom = JSON.parse(output) as { metadata: { component: { type: string; name: string; version: string; purl: string; hashes: unknown[]; properties: Array<{ name: string; value: string }> } }; components: Component[] };
    const digest = built.platforms['linux/amd64']!.manifest;
    expect(bom.metadata.component).toMatchObject({ type: 'container', name: 'shop/api:1.4', version: digest, hashes: [{ alg: 'SHA-256', content: digest.slice(7) }] });
    expect(bom.metadata.component.purl).toBe(`pkg:oci/api@${digest}?arch=amd64&repository_url=docker.io%2Fshop%2Fapi&tag=1.4`);
    expect(bom.metadata.component.properties).toContainEqual({ name: 'cairn:image:platform', value: 'linux/amd64' });
    expect(bom.metadata.component.properties.filter((p) => p.name === 'cairn:image:layer').map((p) => p.value)).toEqual(
      built.platforms['linux/amd64']!.layers.map((d, i) => `${i} ${d} layer ${i + 1}`),
    );
    const layerDigest = (purl: string) => bom.components.find((c) => c.purl === purl)!.properties!.find((p) => p.name === 'cairn:image:layer:digest')!.value;
    expect(layerDigest(BASE)).toBe(built.platforms['linux/amd64']!.layers[0]);
    expect(layerDigest(CURL)).toBe(built.platforms['linux/amd64']!.layers[1]);
    // The operating system is a component of its own; the image holds it and the npm package, it the Debian packages.
    const full = JSON.parse(output) as { components: Array<Record<string, unknown>>; dependencies: Array<{ ref: string; dependsOn: string[] }> };
    expect(full.components.filter((c) => c.type === 'operating-system')).toEqual([{ type: 'operating-system', 'bom-ref': 'cairn:os', name: 'debian', version: '12', description: 'Debian GNU/Linux 12 (bookworm)' }]);
    expect(new Set(full.dependencies.find((d) => d.ref === 'cairn:os')!.dependsOn)).toEqual(new Set([BASE, CURL]));
    expect(full.dependencies.find((d) => d.ref === 'cairn:root')!.dependsOn).toEqual(['cairn:os', LEFT_PAD]);
  });

  it('SPDX: the root package is the container, each package\'s layer in an annotation', async () => {
    const { output } = await scanCommand([layoutTar, '--format', 'spdx']);
    const doc = JSON.parse(output) as { packages: Array<Component & { SPDXID: string; primaryPackagePurpose?: string; versionInfo?: string; externalRefs: Array<{ referenceLocator: string }> }> };
    const root = doc.packages.find((p) => p.SPDXID === 'SPDXRef-Root')!;
    expect(root).toMatchObject({ name: 'shop/api:1.4', primaryPackagePurpose: 'CONTAINER', versionInfo: built.platforms['linux/amd64']!.manifest });
    const curl = doc.packages.find((p) => p.externalRefs?.[0]?.referenceLocator === CURL)!;
    expect(curl.annotations![0]!.comment).toContain(`cairn:image:layer:digest=${built.platforms['linux/amd64']!.layers[1]}`);
    // The operating system: a package the image CONTAINS, which CONTAINS the Debian packages.
    expect(doc.packages.find((p) => p.SPDXID === 'SPDXRef-OperatingSystem')).toMatchObject({ name: 'debian', versionInfo: '12', primaryPackagePurpose: 'OPERATING_SYSTEM' });
    const relationships = (JSON.parse(output) as { relationships: Array<{ spdxElementId: string; relationshipType: string; relatedSpdxElement: string }> }).relationships;
    expect(relationships).toContainEqual({ spdxElementId: 'SPDXRef-Root', relationshipType: 'CONTAINS', relatedSpdxElement: 'SPDXRef-OperatingSystem' });
    expect(relationships).toContainEqual({ spdxElementId: 'SPDXRef-OperatingSystem', relationshipType: 'CONTAINS', relatedSpdxElement: curl.SPDXID });
    if (existsSync(SPDX_SCHEMA)) {
      const { default: Ajv } = await import('ajv');
      const { default: addFormats } = await import('ajv-formats');
      const ajv = new Ajv({ strict: false, allErrors: true });
      addFormats(ajv);
      const validate = ajv.compile(JSON.parse(readFileSync(SPDX_SCHEMA, 'utf8')) as object);
      validate(JSON.parse(output));
      expect(validate.errors ?? []).toEqual([]);
    }
  });

  it('chooses the platform of a multi-platform image; refuses one it does not hold', async () => {
    const multi = await writeOciLayout(path.join(work, 'multi'), 'multi:1', [
      { architecture: 'amd64', layers: [LAYERS[0]!] },
      { architecture: 'arm64', layers: [{ 'etc/os-release': OS_RELEASE, 'var/lib/dpkg/status': pkg('zlib1g', '1:1.2.13.dfsg-1').replace('amd64', 'arm64') }] },
    ]);
    const doc = JSON.parse((await scanCommand([multi.layoutDir, '--platform', 'linux/arm64'])).output) as JsonDoc;
    expect(doc.image.platform).toBe('linux/arm64');
    expect(doc.components.map((c) => [c.purl, c.layer])).toEqual([['pkg:deb/debian/zlib1g@1.2.13.dfsg-1?arch=arm64&distro=debian-12&epoch=1', 0]]);
    await expect(scanCommand([multi.layoutDir, '--platform', 'linux/s390x'])).rejects.toThrow(/linux\/s390x/);
  });

  it('refuses registry options without --image, a password on the command line, --platform for a folder', async () => {
    await expect(scanCommand([layoutTar, '--username', 'a'])).rejects.toThrow(/--username 只用于 --image/);
    await expect(scanCommand(['--image', 'x/y:1', '--password', PASSWORD])).rejects.toThrow(/不接受命令行上的密码/);
    await expect(scanCommand(['--image', 'x/y:1', `--password=${PASSWORD}`])).rejects.not.toThrow(PASSWORD);
    await expect(scanCommand(['--image', 'x/y:1', layoutTar])).rejects.toBeInstanceOf(UsageError);
    await expect(scanCommand([work, '--bogus'])).rejects.toThrow(/未知选项：--bogus/);
    mkdirSync(path.join(work, 'plain'), { recursive: true });
    await expect(scanCommand([path.join(work, 'plain'), '--platform', 'linux/arm64'])).rejects.toThrow(/--platform 只用于容器镜像/);
  });
});

const missing = registryToolsMissing();
// CI installs them (.ci/run): there a missing tool is a failure, not a skipped suite.
if (missing && process.env.CI) throw new Error(missing);

describe.skipIf(missing !== null)('cairn scan --image from a registry with basic auth', () => {
  let registry: TestRegistry;
  beforeAll(async () => {
    registry = await startRegistry({ auth: 'htpasswd', users: { alice: PASSWORD } });
    await registry.push(built.layoutDir, 'shop/api:1.4', 'shop/api', '1.4');
  }, 60_000);
  afterAll(async () => { await registry?.stop(); });

  const io = (password: string, lines: string[] = []): ScanIo => ({ readStdin: async () => `${password}\n`, progress: (l) => lines.push(l) });

  it('pulls into a private temp folder, analyses offline, removes the folder', async () => {
    const lines: string[] = [];
    const ref = `${registry.host}/shop/api:1.4`;
    const { value, left } = await inOwnTemp(() => scanCommand(['--image', ref, '--insecure-http', '--username', 'alice', '--password-stdin'], io(PASSWORD, lines)));
    expect(left).toEqual([]);
    const doc = JSON.parse(value.output) as JsonDoc;
    expect(doc.root).toBe(ref);
    expect(doc.image).toMatchObject({ reference: ref, platform: 'linux/amd64', os: { id: 'debian' } });
    expect(doc.image.layers.map((l) => l.digest)).toEqual(built.platforms['linux/amd64']!.layers);
    expect(layersOf(doc)).toEqual({ [BASE]: 0, [CURL]: 1, [LEFT_PAD]: 1 });
    expect(lines.at(-1)).toBe(`已拉取 ${ref}，开始分析`);
    expect(value.output).not.toContain(PASSWORD);
    // CycloneDX of the pulled image: its registry name in the purl.
    const bom = JSON.parse((await scanCommand(['--image', ref, '--insecure-http', '--username', 'alice', '--password-stdin', '-f', 'cyclonedx'], io(PASSWORD))).output) as { metadata: { component: { purl: string } } };
    expect(bom.metadata.component.purl).toContain(`repository_url=${encodeURIComponent(`${registry.host}/shop/api`)}`);
  }, 60_000);

  it('the command line: a wrong password fails in Chinese with exit code 1, the password never printed', async () => {
    const wrong = 'Wrong-Secret-xyz987';
    const cli = path.resolve(import.meta.dirname, '../../../cli/cairn.ts');
    const node = path.resolve(import.meta.dirname, '../../../node_modules/.bin/node');
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(node, [cli, 'scan', '--image', `${registry.host}/shop/api:1.4`, '--insecure-http', '--username', 'alice', '--password-stdin'], (error, stdout, stderr) => {
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      });
      child.stdin!.end(`${wrong}\n`);
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/[\u4e00-\u9fff]/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout + result.stderr).not.toContain(wrong);
    expect(result.stdout).toBe('');
  }, 60_000);

  it('a missing image is a Chinese RegistryError', async () => {
    await expect(scanCommand(['--image', `${registry.host}/shop/nope:1`, '--insecure-http', '--username', 'alice', '--password-stdin'], io(PASSWORD))).rejects.toThrow(/[\u4e00-\u9fff]/);
  }, 30_000);
});
