import type { Extractor } from '../../model.ts';
import { juliaManifestExtractor } from './manifest.ts';

export const extractors: Extractor[] = [juliaManifestExtractor];
