// npm package tarballs (`.tgz`, `.tar.gz`: what `npm pack` writes and the registry serves): a
// gzipped tar whose entries sit under one top folder (`package/` for npm pack, the package's own
// name for some DefinitelyTyped tarballs), `<top>/package.json` among them — not necessarily
// first. The tar is decompressed as a stream, skipping other entries, until package.json has been
// read. The package is the component (name, version, licence); the dependencies it declares
// (dependencies, optionalDependencies, peerDependencies — not devDependencies, which installing
// the package does not install) are components of their own with the range as their constraint,
// as the npm extractor reports a package.json without a lockfile — unless the tarball bundles
// them (bundleDependencies: `<top>/node_modules/**/package.json`, read on to the end then), when
// they are the bundled packages with their exact versions. A .tgz that is not an npm package (a
// source tarball without package.json, any other archive) is passed over silently.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE, ExtractError } from '../../model.ts';
import { npmPurl } from '../../purl.ts';
import { fileAccess } from '../common/random-access.ts';
import { manifestOf } from '../js-common/manifest.ts';
import { chunksOf, decode, evidence, TarFormatError, TarScanner } from './common.ts';

const TARBALL = /\.(?:tgz|tar\.gz)$/i;
/** Decompressed tar read at most while looking for package.json (the largest published packages are some hundred MiB). */
const MAX_SCAN = 512 * 1024 * 1024;
/** The same for a tarball whose top folder is not npm pack's `package/` (a source tarball, most likely no package). */
const MAX_SCAN_OTHER = 64 * 1024 * 1024;
/** package.json larger than this is not a manifest. */
const MAX_MANIFEST = 4 * 1024 * 1024;

/** An exact npm version (`1.2.3`, `=1.2.3`, `v1.2.3-beta.1`). */
const EXACT = /^(?:=|v)?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/;
/** Protocols that point at code outside any registry. */
const OWN_CODE = /^(?:workspace|file|link|portal):/;

/** A bundled package's manifest, relative to the top folder: `node_modules/x/package.json`, `node_modules/@s/x/node_modules/y/package.json`. */
const BUNDLED = /^(?:node_modules\/(?:@[^/]+\/)?[^/@][^/]*\/)+package\.json$/;
/** Bundled package manifests kept at most. */
const MAX_BUNDLED = 5_000;

/** Whether a package.json bundles dependencies (`bundleDependencies` / `bundledDependencies`: a non-empty list, or true). */
function declaresBundled(text: string): boolean {
  try {
    const pkg = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as Record<string, unknown>;
    const value = pkg.bundleDependencies ?? pkg.bundledDependencies;
    return value === true || (Array.isArray(value) && value.length > 0);
  } catch {
    return false;
  }
}

const topOf = (name: string) => (name.includes('/') ? name.slice(0, name.indexOf('/')) : undefined);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The byte offset in `text` of `"key":`, the first after `"section":` when a section is named; undefined when not found. */
function keyOffset(text: string, key: string, section?: string): number | undefined {
  let from = 0;
  if (section) {
    from = text.search(new RegExp(`"${escape(section)}"\\s*:`));
    if (from < 0) return undefined;
  }
  const at = text.slice(from).search(new RegExp(`"${escape(key)}"\\s*:`));
  return at < 0 ? undefined : Buffer.byteLength(text.slice(0, from + at), 'utf8');
}

export const npmTarballExtractor: Extractor = {
  name: 'npm-tarball',
  ecosystem: 'npm',
  reads: ['*.tgz', '*.tar.gz'],
  matches: (p) => TARBALL.test(p),
  async extract(file: InputFile): Promise<Target[]> {
    const src = await fileAccess(file);
    const head = await src.read(0, 2);
    if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return []; // not gzip: not ours to judge

    let top: string | undefined;
    let single = true;
    let manifest: { name: string; text: string } | undefined;
    let bundles = false;
    const bundled: Array<{ name: string; text: string }> = [];
    const scanner = new TarScanner(
      (name) => {
        // Files at the root (macOS tar's `._package` AppleDouble entries) say nothing either way.
        const t = topOf(name);
        if (t === undefined) return false;
        if (top === undefined) top = t;
        else if (t !== top) single = false;
        return name === `${t}/package.json` || (BUNDLED.test(name.slice(t.length + 1)) && bundled.length < MAX_BUNDLED);
      },
      (entry) => {
        if (entry.size > MAX_MANIFEST) return false;
        const text = entry.data.toString('utf8');
        if (entry.name !== `${top}/package.json`) { bundled.push({ name: entry.name, text }); return false; }
        manifest = { name: entry.name, text };
        // The packages it bundles are in the tarball too, before or after it: read on only then.
        bundles = declaresBundled(text);
        return !bundles;
      },
    );
    const npmPack = () => top === 'package';
    let read = 0;
    // Stops at package.json, at a second top folder (no npm package), or past the smaller budget of a tarball npm pack did not write.
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      return scanner.feed(chunk) || !single || (!npmPack() && read > MAX_SCAN_OTHER);
    };
    try {
      await decode('gzip', chunksOf(src), { label: `压缩包 ${file.path}`, compressedSize: src.size, cap: MAX_SCAN, quietCap: true, onData });
    } catch (error) {
      // A bomb is reported whatever the archive; damage only when it was recognisably an npm package.
      const bomb = error instanceof ExtractError && /压缩炸弹/.test(error.message);
      if (!bomb && !npmPack() && !manifest) return [];
      if (error instanceof TarFormatError) throw new ExtractError(`npm 软件包 ${file.path} 已损坏：${error.message}`);
      if (error instanceof ExtractError && !bomb) throw new ExtractError(error.message.replace(/^压缩包/, 'npm 软件包'));
      throw error;
    }
    if (!manifest || !single) {
      if (npmPack() && !manifest) throw new ExtractError(`npm 软件包 ${file.path} 中没有 package/package.json`);
      return [];
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(manifest.text.charCodeAt(0) === 0xfeff ? manifest.text.slice(1) : manifest.text);
    } catch {
      throw new ExtractError(`npm 软件包 ${file.path} 的 ${manifest.name} 不是有效的 JSON`);
    }
    const m = manifestOf(parsed);
    if (!m) throw new ExtractError(`npm 软件包 ${file.path} 的 ${manifest.name} 顶层不是对象`);
    if (!m.name || !m.version) {
      // A source tarball of a project that is no package (no name or version): not an npm package.
      if (!npmPack()) return [];
      throw new ExtractError(`npm 软件包 ${file.path} 的 ${manifest.name} 缺少 ${m.name ? 'version' : 'name'} 字段`);
    }

    const inside = `${file.path}!/${manifest.name}`;
    const purl = npmPurl(m.name, m.version);
    const dependencies = new Map<string, Component>();
    const declared: Array<[string, string, string]> = [];
    for (const section of ['dependencies', 'optionalDependencies', 'peerDependencies'] as const) {
      for (const [name, range] of Object.entries(m[section])) declared.push([section, name, range]);
    }
    for (const [section, declaredName, rawRange] of declared) {
      let name = declaredName;
      let range = rawRange.trim();
      if (OWN_CODE.test(range)) continue;
      const alias = /^npm:((?:@[^/@]+\/)?[^@]+)(?:@(.*))?$/.exec(range);
      if (alias) { name = alias[1]!; range = alias[2] ?? ''; }
      const exact = EXACT.exec(range)?.[1];
      const dep = npmPurl(name, exact ?? '');
      if (dependencies.has(dep) || dep === purl) continue;
      dependencies.set(dep, {
        purl: dep, ecosystem: 'npm', name, version: exact ?? '', direct: false, scope: 'runtime',
        locations: [{ file: file.path }], licenses: [], dependsOn: [],
        ...(exact ? {} : { constraint: range || '*' }),
        evidence: [evidence(inside, 'package.json', `"${declaredName}": "${rawRange}"`, keyOffset(manifest.text, declaredName, section))],
        confidence: CONFIDENCE.MANIFEST,
      });
    }
    // Bundled packages: in the tarball with their exact versions. A declared dependency the
    // tarball bundles is that package, not a range.
    const inBundle = new Map<string, Component>();
    const bundledDeps = new Map<string, Record<string, string>>();
    for (const b of bundled) {
      let bm: ReturnType<typeof manifestOf>;
      try {
        bm = manifestOf(JSON.parse(b.text.charCodeAt(0) === 0xfeff ? b.text.slice(1) : b.text));
      } catch {
        bm = undefined;
      }
      if (!bm?.name || !bm.version) continue;
      const bp = npmPurl(bm.name, bm.version);
      const where = `${file.path}!/${b.name}`;
      const seen = inBundle.get(bm.name);
      if (seen?.purl === bp) continue;
      const c: Component = {
        purl: bp, ecosystem: 'npm', name: bm.name, version: bm.version, direct: false, scope: 'runtime',
        locations: [{ file: file.path }], licenses: bm.licenses, dependsOn: [],
        evidence: [evidence(where, 'package.json', `"name": "${bm.name}", "version": "${bm.version}"`, keyOffset(b.text, 'name'))],
        confidence: CONFIDENCE.METADATA,
      };
      // The shallowest copy of a name holds the name (what the package itself resolves); nested
      // copies of other versions are components too.
      const depth = (where: string) => where.split('node_modules/').length;
      if (!seen) inBundle.set(bm.name, c);
      else if (depth(where) < depth(seen.evidence![0]!.file)) { inBundle.set(`${bm.name}\0${seen.purl}`, seen); inBundle.set(bm.name, c); }
      else inBundle.set(`${bm.name}\0${bp}`, c);
      bundledDeps.set(bp, { ...bm.dependencies, ...bm.optionalDependencies });
    }
    for (const c of inBundle.values()) {
      for (const name of Object.keys(bundledDeps.get(c.purl) ?? {})) {
        const hit = inBundle.get(name);
        if (hit && hit.purl !== c.purl && !c.dependsOn.includes(hit.purl)) c.dependsOn.push(hit.purl);
      }
    }
    for (const [key, dep] of [...dependencies]) {
      const hit = inBundle.get(dep.name);
      if (!hit) continue;
      dependencies.delete(key);
      dependencies.set(hit.purl, hit);
    }
    const extra = [...inBundle.values()].filter((c) => !dependencies.has(c.purl));

    const component: Component = {
      purl, ecosystem: 'npm', name: m.name, version: m.version, direct: true, scope: 'runtime',
      locations: [{ file: file.path }], licenses: m.licenses, dependsOn: [...dependencies.keys()],
      evidence: [evidence(inside, 'package.json', `"name": "${m.name}", "version": "${m.version}"`, keyOffset(manifest.text, 'name'))],
      confidence: CONFIDENCE.METADATA,
    };
    return [{ file: file.path, type: 'npm-tarball', ecosystem: 'npm', project: null, roots: [purl], components: [component, ...dependencies.values(), ...extra] }];
  },
};
