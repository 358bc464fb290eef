// A SHA-1 index of Java archives the user imports (an export of the site's repository manager, or
// of the Maven Central index): which groupId:artifactId:version an archive is, by the SHA-1 of its
// bytes. Used for archives without pom.properties, where it replaces a guess from the file name
// (an index hit is exact: the bytes are the published artifact's).
//
// Format: UTF-8 text, one archive a line, fields separated by commas, tabs or spaces:
//   sha1,groupId,artifactId,version        (the header line `sha1,groupId,artifactId,version` is allowed)
//   sha1 groupId:artifactId:version        (Maven coordinates as one field)
// `#` starts a comment line; blank lines are skipped. The SHA-1 is 40 hex digits, either case.
// Where it comes from: `cairn scan --jar-index <file>`, and for the platform's analyses the file
// JAR_INDEX_FILE in its data folder (read at the start of each analysis, so replacing the file
// takes effect from the next one).
import { readFile } from 'node:fs/promises';
import { UserError } from '../../../errors.ts';

export interface IndexedArtifact { group: string; artifact: string; version: string }

export interface JarIndex {
  /** Where it was read from, for evidence and messages. */
  source: string;
  bySha1: Map<string, IndexedArtifact>;
}

/** Where the platform keeps the index the user imported: this file in its data folder (CAIRN_DATA_DIR). */
export const JAR_INDEX_FILE = 'jar-index.csv';

/** Lines of a larger index are refused: it is held in memory while analysing. */
const MAX_ENTRIES = 20_000_000;
const SHA1 = /^[0-9a-f]{40}$/i;
const PART = /^[^\s,:/\\]+$/;

/** Parses an index; a line that is none of the formats is an error naming it (the file is the user's). */
export function parseJarIndex(text: string, source: string): JarIndex {
  const bySha1 = new Map<string, IndexedArtifact>();
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line || line.startsWith('#')) continue;
    const fields = line.split(/[,\t ]+/).filter(Boolean);
    if (i === 0 && fields[0]?.toLowerCase() === 'sha1') continue;
    let entry: IndexedArtifact | undefined;
    if (fields.length === 4) entry = { group: fields[1]!, artifact: fields[2]!, version: fields[3]! };
    else if (fields.length === 2) {
      const [group, artifact, version, ...rest] = fields[1]!.split(':');
      if (!rest.length && group && artifact && version) entry = { group, artifact, version };
    }
    if (!SHA1.test(fields[0] ?? '') || !entry || ![entry.group, entry.artifact, entry.version].every((p) => PART.test(p))) {
      throw new UserError(`Java 归档 SHA-1 索引 ${source} 第 ${i + 1} 行格式不正确：应为 “sha1,groupId,artifactId,version” 或 “sha1 groupId:artifactId:version”`, 'invalid');
    }
    bySha1.set(fields[0]!.toLowerCase(), entry);
    if (bySha1.size > MAX_ENTRIES) throw new UserError(`Java 归档 SHA-1 索引 ${source} 超过 ${MAX_ENTRIES} 条`, 'invalid');
  }
  return { source, bySha1 };
}

/** Reads an index file; `shown` is how messages name it (the platform does not show its data folder's path). */
export async function loadJarIndex(file: string, shown = file): Promise<JarIndex> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UserError(`无法读取 Java 归档 SHA-1 索引 ${shown}：${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'invalid');
  }
  return parseJarIndex(text, shown);
}

let current: JarIndex | undefined;

/** The index the Java archive extractor consults from now on in this thread (undefined: none). */
export function useJarIndex(index: JarIndex | undefined): void {
  current = index;
}

export function jarIndex(): JarIndex | undefined {
  return current;
}
