// The platform's analyses read the SHA-1 index of Java archives the user put in the data folder
// (execute-run passes it as the request's jarIndex): a jar without Maven metadata (Debian's
// commons-io, libcommons-io-java, stripped of it) is named by its bytes; a malformed index is a
// problem of the analysis, which goes on without it.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseProject, buildAdvisoryIndex, JAR_INDEX_FILE } from '../../../server/engine/index.ts';

const work = mkdtempSync(path.join(tmpdir(), 'cairn-jar-index-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the SHA-1 index in an analysis', () => {
  it('names a bare jar of an upload by its SHA-1; a malformed index is a problem and the analysis goes on', async () => {
    const tree = path.join(work, 'app');
    mkdirSync(path.join(tree, 'lib'), { recursive: true });
    const jar = path.join(tree, 'lib', 'io.jar');
    copyFileSync('/usr/share/java/commons-io.jar', jar);
    execFileSync('zip', ['-q', '-d', jar, 'META-INF/maven/*', 'META-INF/MANIFEST.MF']);
    const sha1 = createHash('sha1').update(readFileSync(jar)).digest('hex');
    const upload = path.join(work, 'app.zip');
    execFileSync('zip', ['-qr', upload, 'lib'], { cwd: tree });
    const index = path.join(work, JAR_INDEX_FILE);
    expect(JAR_INDEX_FILE).toBe('jar-index.csv');

    const analyse = async () => (await analyseProject(
      { file: upload, fileName: 'app.zip', kind: 'binary', modes: [1], workParent: work, jarIndex: index },
      async () => ({ advisories: buildAdvisoryIndex([]), licenseLevels: new Map() }),
    )).analysis;
    writeFileSync(index, `sha1,groupId,artifactId,version\n${sha1},commons-io,commons-io,2.11.0\n`);
    const named = await analyse();
    expect(named.components.map((c) => c.purl)).toEqual(['pkg:maven/commons-io/commons-io@2.11.0']);
    expect(named.problems).toEqual([]);

    writeFileSync(index, `${sha1};commons-io\n`);
    const without = await analyse();
    expect(without.components).toEqual([]);
    expect(without.problems.map((p) => p.message)).toContain('Java 归档 SHA-1 索引 数据目录中的 jar-index.csv 第 1 行格式不正确：应为 “sha1,groupId,artifactId,version” 或 “sha1 groupId:artifactId:version”；本次分析未使用该索引');
  }, 120_000);
});
