// gradle.lockfile (Gradle 6.8+, one file per project, `group:name:version=conf1,conf2`) and the
// older per-configuration files under gradle/dependency-locks/<configuration>.lockfile.
// The lockfile records resolved classpaths, not declarations and no edges: an entry is direct
// when the sibling build.gradle(.kts) names it in string notation. Scope: development when every configuration it belongs to is a test,
// annotation-processing or build-tooling configuration; runtime otherwise.
import type { Component, ExtractContext, Extractor, InputFile, Scope, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { mavenPurl } from '../../purl.ts';

const DEV_CONFIGURATION = /test|annotationprocessor|kapt|^ksp|developmentonly|lint|detekt|ktlint|jacoco|checkstyle|spotbugs|pmd|errorprone|compileonly|buildscript|classpath$/i;
const RUNTIME_CLASSPATH = /(^|[a-z])(compile|runtime)Classpath$|^(compile|runtime|implementation|api|default)$/i;

/** Whether a Gradle configuration name is test/tooling-only (development scope). */
export function isDevConfiguration(name: string): boolean {
  if (/test/i.test(name)) return true;
  if (RUNTIME_CLASSPATH.test(name)) return false;
  return DEV_CONFIGURATION.test(name);
}

export const gradleScope = (configurations: string[]): Scope =>
  configurations.length === 0 || configurations.some((c) => !isDevConfiguration(c)) ? 'runtime' : 'development';

const LINE = /^([^\s:=#]+):([^\s:=#]+):([^\s:=#]+)(?:=(.*))?$/;

function parseGradleLockfile(text: string, file: string, defaultConfiguration: string | undefined, problems: string[]): Component[] {
  if (text.includes('\u0000')) throw new ExtractError(`${file} 不是有效的 Gradle 锁文件：包含二进制内容`);
  const byPurl = new Map<string, Component & { configurations: Set<string> }>();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line || line.startsWith('#') || line.startsWith('empty=')) continue;
    const m = LINE.exec(line);
    if (!m) {
      // Not `group:name:version=configurations`: passed over, and told.
      problems.push(`${file} 第 ${i + 1} 行：“${line.length > 80 ? `${line.slice(0, 80)}…` : line}”不是“组:名称:版本=配置”形式，已跳过`);
      continue;
    }
    const [, group, artifact, version, confs] = m;
    const configurations = confs === undefined ? (defaultConfiguration ? [defaultConfiguration] : []) : confs.split(',').map((c) => c.trim()).filter(Boolean);
    const purl = mavenPurl(group!, artifact!, version!);
    const existing = byPurl.get(purl);
    if (existing) {
      for (const c of configurations) existing.configurations.add(c);
      existing.locations.push({ file, startLine: i + 1, endLine: i + 1 });
      continue;
    }
    byPurl.set(purl, {
      purl, ecosystem: 'maven', name: `${group}:${artifact}`, version: version!, direct: false, scope: 'runtime',
      locations: [{ file, startLine: i + 1, endLine: i + 1 }], licenses: [], dependsOn: [], configurations: new Set(configurations),
    });
  }
  return [...byPurl.values()].map(({ configurations, ...c }) => ({ ...c, scope: gradleScope([...configurations]) }));
}

/** `group:name` pairs written as string notation in a build script ("g:a:v", 'g:a', "g:a:$v"). */
function declaredInBuildScript(script: string): Set<string> {
  const out = new Set<string>();
  for (const m of script.matchAll(/["']([\w.-]+):([\w.-]+)(?::[^"'\s]*)?["']/g)) out.add(`${m[1]}:${m[2]}`);
  for (const m of script.matchAll(/group\s*[:=]\s*["']([\w.-]+)["']\s*,\s*name\s*[:=]\s*["']([\w.-]+)["']/g)) out.add(`${m[1]}:${m[2]}`);
  return out;
}

async function extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const base = file.path.slice(file.path.lastIndexOf('/') + 1);
  const perConfiguration = file.path.includes('dependency-locks/') ? base.replace(/\.lockfile$/, '') : undefined;
  const problems: string[] = [];
  const components = parseGradleLockfile(await file.text(), file.path, perConfiguration, problems);
  // The lockfile does not say what the project declares; its build script does, when it names
  // the module in string notation (version catalog aliases are not followed).
  let dir = file.path.includes('/') ? file.path.slice(0, file.path.lastIndexOf('/')) : '';
  if (perConfiguration) dir = dir.replace(/\/?gradle\/dependency-locks$/, '');
  const scripts = await Promise.all(['build.gradle', 'build.gradle.kts'].map((n) => ctx.readText(dir ? `${dir}/${n}` : n)));
  const declared = declaredInBuildScript(scripts.filter((s) => s !== undefined).join('\n'));
  for (const c of components) if (declared.has(c.name)) c.direct = true;
  return [{
    file: file.path, type: 'gradle', ecosystem: 'maven', project: null, roots: components.filter((c) => c.direct).map((c) => c.purl), components,
    ...(problems.length ? { problems } : {}),
  }];
}

export const gradleLockfileExtractor: Extractor = {
  name: 'gradle',
  ecosystem: 'maven',
  reads: ['gradle.lockfile', '*-gradle.lockfile', 'gradle/dependency-locks/*.lockfile'],
  matches: (p) => {
    const base = p.slice(p.lastIndexOf('/') + 1);
    return base === 'gradle.lockfile' || base.endsWith('-gradle.lockfile') || (p.includes('gradle/dependency-locks/') && base.endsWith('.lockfile'));
  },
  extract,
};
