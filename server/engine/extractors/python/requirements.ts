// pip requirements files (requirements*.txt): pinned requirements (`==`, `===`), extras, markers
// (kept, not evaluated), hashes and per-line options, `\` continuations, comments, and
// `-r`/`-c` includes resolved relative to the including file (cycle-safe). Constraint files pin
// versions of requirements listed elsewhere without adding packages. Editable, URL and VCS
// requirements are reported under the name they declare (`name @ url` or `#egg=name`), with the
// version a wheel or sdist file name carries, else ''.
import path from 'node:path';
import type { Component, ExtractContext, Extractor, InputFile, Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { component, normalizePypiName, parseRequirementHead, pinnedVersion, TargetBuilder } from './common.ts';

export interface RequirementsOptions {
  /**
   * Report requirements that pin nothing (`MarkupSafe>2.0.0`, `requests`) with version '' and
   * their declared range (on by default: a declared dependency is never dropped silently; its
   * unknown version is a risk of its own). `false` leaves them out, as trivy does.
   */
  includeUnpinned?: boolean;
}

const MAX_DEPTH = 32;

export function isRequirementsFile(p: string): boolean {
  // Requirement files shipped inside installed packages are not the project's declarations.
  if (/(^|\/)(site|dist)-packages\//.test(p)) return false;
  const base = path.posix.basename(p).toLowerCase();
  if (!base.endsWith('.txt')) return false;
  if (/^requirements.*\.txt$/.test(base) || /[-_.]requirements\.txt$/.test(base)) return true;
  const parent = path.posix.basename(path.posix.dirname(p)).toLowerCase();
  return parent === 'requirements' && !/^(readme|license|licence|notice)/.test(base);
}

/** Dev-only by file name: requirements-dev.txt, dev-requirements.txt, requirements/test.txt, ... */
export function scopeOfFile(p: string): Scope {
  const base = path.posix.basename(p).toLowerCase().replace(/\.txt$/, '');
  const words = base.split(/[-_.]+/);
  return words.some((w) => ['dev', 'develop', 'development', 'test', 'tests', 'testing', 'lint', 'docs', 'doc', 'ci'].includes(w)) ? 'development' : 'runtime';
}

interface Logical { text: string; startLine: number; endLine: number }

/** Joins `\` continuations and drops comments; yields logical lines with their line span. */
export function logicalLines(text: string): Logical[] {
  const raw = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const out: Logical[] = [];
  let buf = '';
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    let line = raw[i];
    if (!buf) start = i + 1;
    // A comment starts at `#` at the beginning or after whitespace (URL fragments like #egg= stay).
    const hash = /(^|\s)#/.exec(line);
    if (hash) line = line.slice(0, hash.index);
    if (/\\\s*$/.test(line) && !hash) {
      buf += line.replace(/\\\s*$/, ' ');
      continue;
    }
    buf += line;
    if (buf.trim()) out.push({ text: buf.trim(), startLine: start, endLine: i + 1 });
    buf = '';
  }
  if (buf.trim()) out.push({ text: buf.trim(), startLine: start, endLine: raw.length });
  return out;
}

export interface Requirement {
  name: string;
  version: string;
  extras: string[];
  markers: string;
  /** URL, VCS or path requirement (editable or not). */
  url: string;
  /** The version specifiers as written (`>=2.0,<3`), '' when none. */
  specifier: string;
  editable: boolean;
  file: string;
  startLine: number;
  endLine: number;
}

/** Name and version from an archive URL's file name: `pkg-1.0-py3-none-any.whl`, `pkg-1.0.tar.gz`. */
function fromArchive(url: string): { name: string; version: string } | undefined {
  const file = decodeURIComponent(url.split(/[?#]/)[0].split('/').pop() ?? '');
  let m = /^([A-Za-z0-9][A-Za-z0-9._]*?)-(\d[^-]*)-.*\.whl$/.exec(file);
  if (m) return { name: m[1], version: m[2] };
  m = /^([A-Za-z0-9][A-Za-z0-9._-]*?)-(\d[A-Za-z0-9.!+_]*)\.(tar\.gz|tar\.bz2|tar\.xz|zip|tgz)$/.exec(file);
  return m ? { name: m[1], version: m[2] } : undefined;
}

const eggName = (url: string) => /[#&]egg=([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(url)?.[1];

/** One requirement line (options already handled), or undefined when it names no package. */
export function parseRequirement(textIn: string, file: string, startLine: number, endLine: number, editable = false): Requirement | undefined {
  // Per-requirement options (`--hash=...`, `--config-settings ...`) follow the requirement.
  const text = textIn.split(/\s+(?=--[A-Za-z])/)[0].trim();
  const base = { extras: [] as string[], markers: '', url: '', specifier: '', editable, file, startLine, endLine };
  const looksLikeUrl = /^(?:[a-z][a-z0-9+.-]*:\/\/|git\+|hg\+|svn\+|bzr\+|\.{0,2}\/|file:)/i.test(text) || editable;
  if (looksLikeUrl) {
    // URL / VCS / path: the name comes from #egg= or the archive file name.
    const url = text.split(/\s*;\s*/)[0].split(/\s+/)[0];
    const markers = text.includes(';') ? text.slice(text.indexOf(';') + 1).trim() : '';
    const egg = eggName(url);
    const archive = fromArchive(url);
    const name = egg ? egg.replace(/-\d.*$/, '') : archive?.name;
    if (!name) return undefined;
    const eggVersion = egg && /-(\d[^-]*)$/.exec(egg)?.[1];
    return { ...base, name, version: archive?.version ?? eggVersion ?? '', markers, url };
  }
  const head = parseRequirementHead(text);
  if (!head) return undefined;
  let rest = head.rest;
  let markers = '';
  const semi = rest.indexOf(';');
  if (semi >= 0) {
    markers = rest.slice(semi + 1).trim();
    rest = rest.slice(0, semi);
  }
  rest = rest.trim();
  if (rest.startsWith('@')) {
    const url = rest.slice(1).trim().split(/\s+/)[0];
    const archive = fromArchive(url);
    return { ...base, name: head.name, extras: head.extras, markers, url, version: archive && normalizePypiName(archive.name) === normalizePypiName(head.name) ? archive.version : '' };
  }
  if (rest && !/^[(<>=!~]/.test(rest)) return undefined;
  return { ...base, name: head.name, extras: head.extras, markers, version: pinnedVersion(rest), specifier: rest.replace(/^\((.*)\)$/, '$1').replace(/\s+/g, '') };
}

interface Collected { requirements: Requirement[]; constraints: Map<string, string> }

/** Reads a requirements file and everything it includes (`-r`, `-c`), each file once. */
async function collect(entry: string, text: string, ctx: ExtractContext): Promise<Collected> {
  const requirements: Requirement[] = [];
  const constraints = new Map<string, string>();
  const visited = new Set<string>([entry]);

  const visit = async (file: string, body: string, asConstraints: boolean, depth: number): Promise<void> => {
    ctx.signal.throwIfAborted();
    for (const line of logicalLines(body)) {
      const include = /^(-r|--requirement|-c|--constraint)(?:\s*=\s*|\s+|(?=[^\s-]))(\S+)/.exec(line.text);
      if (include) {
        const target = include[2];
        if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target) || depth >= MAX_DEPTH) continue;
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), target));
        if (resolved.startsWith('../') || path.posix.isAbsolute(resolved) || visited.has(resolved)) continue;
        visited.add(resolved);
        const included = await ctx.readText(resolved).catch(() => undefined);
        if (included === undefined) continue;
        const constraint = asConstraints || include[1] === '-c' || include[1] === '--constraint';
        await visit(resolved, included, constraint, depth + 1);
        continue;
      }
      let reqText = line.text;
      let editable = false;
      const e = /^(-e|--editable)(?:\s*=\s*|\s+)(.+)$/.exec(reqText);
      if (e) {
        reqText = e[2];
        editable = true;
      } else if (reqText.startsWith('-')) {
        // Global options: -i/--index-url, --extra-index-url, -f, --trusted-host, --pre, ...
        continue;
      }
      const req = parseRequirement(reqText, file, line.startLine, line.endLine, editable);
      if (!req) continue;
      if (asConstraints) {
        if (req.version) constraints.set(normalizePypiName(req.name), req.version);
      } else {
        requirements.push(req);
      }
    }
  };
  await visit(entry, text, false, 0);
  return { requirements, constraints };
}

/** UTF-8, or UTF-16 with a BOM (`pip freeze > requirements.txt` in Windows PowerShell writes it). */
export function decodeRequirements(buf: Buffer, file: string): string {
  let text: string;
  const utf16 = () => buf.subarray(2, 2 + ((buf.length - 2) & ~1));
  if (buf[0] === 0xff && buf[1] === 0xfe) text = utf16().toString('utf16le');
  else if (buf[0] === 0xfe && buf[1] === 0xff) text = Buffer.from(utf16()).swap16().toString('utf16le');
  else text = buf.toString('utf8');
  if (text.includes('\u0000')) throw new ExtractError(`requirements 文件 ${file} 不是文本文件（含有 NUL 字节）`);
  return text;
}

export function requirementsExtractor(options: RequirementsOptions = {}): Extractor {
  return {
    name: 'pip',
    ecosystem: 'pypi',
    reads: ['requirements.txt', 'requirements-*.txt', 'requirements/*.txt'],
    matches: isRequirementsFile,
    async extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
      const text = decodeRequirements(await file.read(), file.path);
      const { requirements, constraints } = await collect(file.path, text, ctx);
      const builder = new TargetBuilder();
      // A name pinned by some requirement makes its unpinned mentions redundant.
      const pinnedNames = new Set(requirements.filter((r) => r.version).map((r) => normalizePypiName(r.name)));
      for (const r of requirements) {
        const key = normalizePypiName(r.name);
        let version = r.version;
        if (!version) {
          if (pinnedNames.has(key)) continue;
          version = constraints.get(key) ?? '';
          if (!version && !r.url && options.includeUnpinned === false) continue;
        }
        const c: Component = component({
          name: r.name,
          version,
          direct: true,
          scope: scopeOfFile(r.file),
          location: { file: r.file, startLine: r.startLine, endLine: r.endLine },
          ...(!version && !r.url ? { constraint: r.specifier } : {}),
        });
        builder.add(c);
      }
      return [builder.target(file.path, 'pip', null)];
    },
  };
}

export const requirements = requirementsExtractor();
