// gradle/verification-metadata.xml: every component Gradle verified (checksums/signatures),
// i.e. the resolved modules of all configurations including build tooling. No scopes or edges
// are recorded: components are runtime, not direct. Components missing group, name or version
// cannot be named and are skipped.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { mavenPurl } from '../../purl.ts';
import { childEl, childEls, decodeXmlBytes, parseXml } from '../common/xml.ts';

async function extract(file: InputFile): Promise<Target[]> {
  const root = parseXml(decodeXmlBytes(await file.read()), file.path);
  if (root.name !== 'verification-metadata') throw new ExtractError(`${file.path} 不是 Gradle 依赖校验文件：根元素是 <${root.name}>`);
  const components = new Map<string, Component>();
  for (const el of childEls(childEl(root, 'components'), 'component')) {
    const { group, name, version } = el.attrs;
    if (!group || !name || !version) continue;
    const purl = mavenPurl(group, name, version);
    const location = { file: file.path, startLine: el.line, endLine: el.endLine };
    const existing = components.get(purl);
    if (existing) existing.locations.push(location);
    else components.set(purl, { purl, ecosystem: 'maven', name: `${group}:${name}`, version, direct: false, scope: 'runtime', locations: [location], licenses: [], dependsOn: [] });
  }
  return [{ file: file.path, type: 'gradle-verification', ecosystem: 'maven', project: null, roots: [], components: [...components.values()] }];
}

export const gradleVerificationExtractor: Extractor = {
  name: 'gradle-verification',
  ecosystem: 'maven',
  reads: ['gradle/verification-metadata.xml'],
  matches: (p) => p === 'gradle/verification-metadata.xml' || p.endsWith('/gradle/verification-metadata.xml'),
  extract,
};
