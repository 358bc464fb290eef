// packages.config (NuGet before PackageReference): every installed package, transitive ones
// included, each pinned. All are reported as direct (the project lists them itself);
// developmentDependency="true" marks development scope.
import type { Component, ExtractContext, Extractor, InputFile, Target } from '../../model.ts';
import { ExtractError } from '../../model.ts';
import { childEls, decodeXmlBytes, parseXml } from '../common/xml.ts';
import { exactNugetVersion, newComponent, siblingProject } from './common.ts';

async function extract(file: InputFile, ctx: ExtractContext): Promise<Target[]> {
  const root = parseXml(decodeXmlBytes(await file.read()), file.path);
  if (root.name !== 'packages') throw new ExtractError(`${file.path} 不是 NuGet packages.config：根元素是 <${root.name}>，应为 <packages>`);
  const components = new Map<string, Component>();
  for (const el of childEls(root, 'package')) {
    const name = el.attrs.id?.trim();
    if (!name) continue;
    const version = exactNugetVersion(el.attrs.version);
    const scope = el.attrs.developmentDependency?.toLowerCase() === 'true' ? 'development' : 'runtime';
    const c = newComponent(name, version, true, scope, { file: file.path, startLine: el.line, endLine: el.endLine });
    const existing = components.get(c.purl);
    if (!existing) components.set(c.purl, c);
    else if (scope === 'runtime') existing.scope = 'runtime';
  }
  const list = [...components.values()];
  const sibling = await siblingProject(ctx, file.path);
  const project = sibling && { purl: sibling.purl, name: sibling.name, version: sibling.version };
  return [{ file: file.path, type: 'packages-config', ecosystem: 'nuget', project, roots: list.map((c) => c.purl), components: list }];
}

export const packagesConfigExtractor: Extractor = {
  name: 'packages-config',
  ecosystem: 'nuget',
  reads: ['packages.config'],
  matches: (p) => p === 'packages.config' || p.endsWith('/packages.config'),
  extract,
};
