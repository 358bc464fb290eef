// An installed R package's `DESCRIPTION` (Debian control format): R writes a `Built:` field when
// it installs a package (a site library, renv/library, an image's R library), and such a file is
// the package itself — name, version and licence — as syft reports it. A package's source
// DESCRIPTION (no `Built:`) declares dependencies only by constraint (`rlang (>= 1.0.0)`), and
// purl-spec's cran type requires a version, so it is no component list: a project's packages are
// read from its renv.lock.
import type { Component, Extractor, InputFile, Target } from '../../model.ts';
import { purlOf } from '../../purl.ts';
import { parseDcf } from './renv-lock.ts';

const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

export function parseDescription(text: string, file: string): Target | null {
  const fields = parseDcf(text.replace(/^\uFEFF/, ''));
  const name = fields.get('Package');
  const version = fields.get('Version');
  if (!fields.has('Built') || !name || !version) return null;
  const lines = text.split(/\r?\n/).length - (text.endsWith('\n') ? 1 : 0);
  const license = fields.get('License');
  const component: Component = {
    purl: purlOf('cran', { name, version }), ecosystem: 'cran', name, version, direct: true, scope: 'runtime',
    locations: [{ file, startLine: 1, endLine: Math.max(1, lines) }], licenses: license ? [license] : [], dependsOn: [],
  };
  return { file, type: 'r-description', ecosystem: 'cran', project: null, roots: [component.purl], components: [component] };
}

export const descriptionExtractor: Extractor = {
  name: 'r-description',
  ecosystem: 'cran',
  reads: ['DESCRIPTION'],
  matches: (p) => baseName(p) === 'DESCRIPTION',
  async extract(file: InputFile) {
    // A source DESCRIPTION, or a file of that name in another kind of project: nothing to report.
    const target = parseDescription(await file.text(), file.path);
    return target ? [target] : [];
  },
};
