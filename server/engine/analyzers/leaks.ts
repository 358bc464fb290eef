// Sensitive information (analysis mode 9): internal addresses, build-machine paths, credentials,
// private keys, tokens and e-mail addresses in the strings of every file, binaries included
// (detectors/leaks). The administrators' rules come with the analysis (AnalyzerOptions).
import type { FileAnalyzer, FileFindingFields } from './model.ts';

export const leakAnalyzer: FileAnalyzer = {
  kind: 'file',
  name: 'leaks',
  mode: 9,
  async start(options) {
    const { leakScanner } = await import('../detectors/leaks/index.ts');
    const scanner = leakScanner(options?.leakRules ?? [], options?.disabledLeakRules ?? []);
    return (file): Pick<FileFindingFields, 'leaks'> => (file.bytes ? { leaks: scanner.scan(file.bytes) } : {});
  },
};
