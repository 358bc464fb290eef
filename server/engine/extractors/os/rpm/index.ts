import type { Extractor } from '../../../model.ts';
import { rpmExtractor } from './extractor.ts';

export { readRpmDatabase, rpmTarget, type RpmComponent, type RpmComponentDetails } from './extractor.ts';
export const extractors: Extractor[] = [rpmExtractor];
