// Go: go.mod (+ go.sum before go 1.17), vendor/modules.txt, and the build information of Go
// executables (container images ship Go programs without their go.mod).
import type { Extractor } from '../../model.ts';
import { goBinaryExtractor } from './binary.ts';
import { goModExtractor, goVendorExtractor } from './gomod.ts';

export { componentsFromModFile, goModExtractor, goVendorExtractor } from './gomod.ts';
export { compareGoVersions, parseGoSum, parseModFile } from './modfile.ts';
export { componentsFromBuildInfo, goBinaryExtractor, isExecutableCandidate, stdlibVersion } from './binary.ts';
export { parseModInfo, readGoBuildInfo } from './buildinfo.ts';

export const extractors: Extractor[] = [goModExtractor, goVendorExtractor, goBinaryExtractor];
