// Go: go.mod (+ go.sum before go 1.17) and vendor/modules.txt.
import type { Extractor } from '../../model.ts';
import { goModExtractor, goVendorExtractor } from './gomod.ts';

export { componentsFromModFile, goModExtractor, goVendorExtractor } from './gomod.ts';
export { compareGoVersions, parseGoSum, parseModFile } from './modfile.ts';

export const extractors: Extractor[] = [goModExtractor, goVendorExtractor];
