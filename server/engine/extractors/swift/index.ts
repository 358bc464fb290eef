import type { Extractor } from '../../model.ts';
import { swiftExtractor } from './package-resolved.ts';

export const extractors: Extractor[] = [swiftExtractor];
