// Go executables (in container images above all: /usr/local/bin/*, /app/server, /ko-app/*): the
// modules compiled in, from the build information the linker embeds (buildinfo.ts), as
// osv-scanner and trivy report them:
//  - the main module (its version when the build stamped one: a tagged `go install`, else the
//    version set with `-X main.version=` in -ldflags, else a pseudo-version from the VCS stamp),
//    depending on every other module;
//  - every dependency module, with its `=>` replacement when it has one (a replacement by a
//    directory is source built in place, not a published module, and has no version);
//  - the toolchain's standard library as pkg:golang/stdlib@<version> (go1.21.3 -> 1.21.3), which
//    is how the Go vulnerability database names the standard library's advisories.
// Files are claimed by name (executables have no extension on Unix, `.exe` on Windows; anything
// under bin/, sbin/ or libexec/) and rejected on their first bytes, so a claimed text file costs
// one small read.
import type { Component, Evidence, Extractor, InputFile, Target } from '../../model.ts';
import { CONFIDENCE } from '../../model.ts';
import { golangPurl } from '../../purl.ts';
import { fileAccess } from '../common/random-access.ts';
import { isExecutableMagic, readGoBuildInfo } from './buildinfo.ts';
import { isLocalReplacement } from './modfile.ts';
import type { GoBuildInfo, GoModule } from './buildinfo.ts';

/** Smaller than any executable the Go linker writes (a stripped hello world is ~800 KB). */
const MIN_SIZE = 64 * 1024;

/** Folders whose extensionless files are data, documentation or package databases, never executables. */
const DATA_DIRS = /(^|\/)(usr\/share|usr\/include|etc|var\/lib|var\/cache|var\/log|usr\/lib\/opkg|usr\/lib\/sysimage|lib\/apk|proc|sys|dev)\//;
const IN_BIN = /(^|\/)(bin|sbin|libexec)\//;
/** Extensionless names that are text by convention. */
const TEXT_NAMES = /^(license|licence|copying|notice|readme|authors|changelog|changes|makefile|dockerfile|vagrantfile|gemfile|rakefile|procfile|jenkinsfile|version|owners|contributors|patents|install|news|todo)$/i;

export function isExecutableCandidate(path: string): boolean {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (!base || base.startsWith('.')) return false;
  if (/\.exe$/i.test(base)) return true;
  if (DATA_DIRS.test(path)) return false;
  if (IN_BIN.test(path)) return !/\.(sh|py|pl|rb|js|txt|md|json|ya?ml|conf|cfg|ini|bat|cmd|ps1|1|gz)$/i.test(base);
  return !base.includes('.') && !TEXT_NAMES.test(base);
}

/** `go1.21.3` -> `1.21.3`, `go1.22` -> `1.22.0`, `go1.21rc2` -> `1.21.0-rc.2`; '' for a devel toolchain. */
export function stdlibVersion(goVersion: string): string {
  const m = /^go(\d+)\.(\d+)(?:\.(\d+))?(?:(rc|beta)(\d+))?(?:\s.*)?$/.exec(goVersion.trim());
  if (!m) return '';
  const base = `${m[1]}.${m[2]}.${m[3] ?? '0'}`;
  return m[4] ? `${base}-${m[4]}.${m[5]}` : base;
}

/** The version of the main module: stamped by the go command, set with -X, or derived from the VCS stamp. */
function mainVersion(info: GoBuildInfo): string {
  const stamped = info.main?.version ?? '';
  if (stamped && stamped !== '(devel)') return stamped;
  // -ldflags "-X main.version=v1.2.3" (or any package's Version / version variable), as trivy reads it.
  const ldflags = info.settings.get('-ldflags') ?? '';
  for (const m of ldflags.matchAll(/-X[= ]['"]?([^'"\s=]+)=([^'"\s]+)/g)) {
    const key = m[1]!.toLowerCase();
    if (/(^|[./])(version|gitversion|buildversion|appversion)$/.test(key) && /^v?\d+\.\d+/.test(m[2]!)) {
      return m[2]!.startsWith('v') ? m[2]! : `v${m[2]}`;
    }
  }
  const revision = info.settings.get('vcs.revision');
  const time = info.settings.get('vcs.time');
  if (revision && time && /^[0-9a-f]{12,}$/i.test(revision)) {
    const stamp = time.replace(/[-:TZ]/g, '').slice(0, 14);
    if (/^\d{14}$/.test(stamp)) return `v0.0.0-${stamp}-${revision.slice(0, 12)}`;
  }
  return '';
}

/** The module actually compiled in: the replacement when there is one. */
function effective(m: GoModule): { path: string; version: string } {
  const r = m.replace;
  if (!r) return { path: m.path, version: m.version };
  // A directory replacement (`=> ../fork`, version empty or `(devel)`): the module's name, version unknown.
  const local = !r.version || r.version === '(devel)' || isLocalReplacement({ newPath: r.path, newVersion: r.version });
  return local ? { path: m.path, version: '' } : { path: r.path, version: r.version };
}

/** A module path a purl can name: no directory paths, nothing empty between slashes. */
const isModulePath = (p: string) => p !== '' && !/^(\.|\/|[A-Za-z]:)/.test(p) && !p.split('/').includes('') && !/\s/.test(p);

/** The line of `go version -m` that names a module, as evidence: `dep github.com/x/y v1.2.3 h1:…`, `=> ../fork`. */
function moduleLine(kind: 'mod' | 'dep', m: GoModule): string {
  const line = `${kind} ${m.path} ${m.version}${m.sum ? ` ${m.sum}` : ''}`;
  return m.replace ? `${line} => ${m.replace.path} ${m.replace.version}`.trim() : line;
}

export function componentsFromBuildInfo(info: GoBuildInfo, file: string): Target {
  const location = [{ file }];
  const components: Component[] = [];
  const seen = new Set<string>();
  const evidence = (text: string): Evidence[] => [{ file, rule: 'Go 构建信息', text: text.slice(0, 200), offset: info.offset }];
  const add = (name: string, version: string, direct: boolean, text: string): string => {
    const purl = golangPurl(name, version);
    if (!seen.has(purl)) {
      seen.add(purl);
      components.push({
        purl, ecosystem: 'golang', name, version, direct, scope: 'runtime', locations: location, licenses: [], dependsOn: [],
        evidence: evidence(text), confidence: CONFIDENCE.METADATA,
      });
    }
    return purl;
  };
  const deps = info.deps
    .map((m) => ({ m, e: effective(m) }))
    .filter(({ e }) => isModulePath(e.path))
    .map(({ m, e }) => add(e.path, e.version === '(devel)' ? '' : e.version, false, moduleLine('dep', m)));
  const std = stdlibVersion(info.goVersion);
  if (std) deps.push(add('stdlib', std, false, info.goVersion));
  const mainPath = info.main?.path || info.path;
  let roots = deps;
  if (isModulePath(mainPath) && mainPath !== 'command-line-arguments') {
    const version = mainVersion(info);
    const text = info.main ? moduleLine('mod', info.main) : `path ${info.path}`;
    const main = add(mainPath, version, true, version && version !== info.main?.version ? `${text}; ${version}` : text);
    const mainComponent = components.find((c) => c.purl === main)!;
    mainComponent.dependsOn = deps.filter((d) => d !== main);
    roots = [main];
  }
  return { file, type: 'gobinary', ecosystem: 'golang', project: null, roots, components };
}

async function extractGoBinary(file: InputFile): Promise<Target[]> {
  if (file.size > 0 && file.size < MIN_SIZE) return [];
  const src = await fileAccess(file);
  if (src.size < MIN_SIZE || !isExecutableMagic(await src.read(0, 16))) return [];
  const info = await readGoBuildInfo(src);
  return info ? [componentsFromBuildInfo(info, file.path)] : [];
}

export const goBinaryExtractor: Extractor = {
  name: 'gobinary',
  ecosystem: 'golang',
  reads: ['Go 可执行文件'],
  matches: isExecutableCandidate,
  extract: extractGoBinary,
};
