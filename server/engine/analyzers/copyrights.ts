// Copyright detection (analysis mode 7): statements with their holders (same line), and authors
// not already named by a statement (detectors/copyright).
import type { FileAnalyzer, FileFindingFields } from './model.ts';

export const copyrightAnalyzer: FileAnalyzer = {
  kind: 'file',
  name: 'copyrights',
  mode: 7,
  async start() {
    const { detectCopyrights } = await import('../detectors/copyright/index.ts');
    return (file): Pick<FileFindingFields, 'copyrights' | 'authors'> => {
      const found = detectCopyrights(file.text);
      const holderAt = new Map(found.holders.map((h) => [h.startLine, h.value]));
      const copyrights = found.copyrights.map((c) => ({ statement: c.value, holder: holderAt.get(c.startLine) ?? null, line: c.startLine }));
      const lines = new Set(copyrights.map((c) => c.line));
      const authors = found.authors.filter((a) => !lines.has(a.startLine)).map((a) => ({ value: a.value, line: a.startLine }));
      return { copyrights, authors };
    };
  },
};
