// Which extractor families an analysis runs (design.md §9: the registry in index.ts lists them all).
// Families that read built artefacts — executables and libraries (ELF, PE, Mach-O: the `native`
// family) — are analysis mode 8 (二进制检测): a source input runs them only when the mode is ticked,
// so a source tree's vendored .so files are read as components only when asked. Images and binary
// uploads keep every family whatever the modes say: built artefacts are what they are made of.
// Light on purpose (no extractor is loaded here): the platform asks it before the analysis starts.
import type { InputKind } from '../../../contract/sources.ts';

/** Families (extractors/index.ts keys) that read executables and libraries: run with analysis mode 8 on source inputs. */
export const BINARY_EXTRACTOR_FAMILIES: readonly string[] = ['native'];

/** The families an analysis of this kind with these modes leaves out, by name ([]: it runs every family). */
export function skippedExtractorFamilies(kind: InputKind, modes: readonly number[]): string[] {
  if (kind === 'image' || kind === 'binary' || modes.includes(8)) return [];
  return [...BINARY_EXTRACTOR_FAMILIES];
}
