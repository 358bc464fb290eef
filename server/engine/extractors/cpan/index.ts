import type { Extractor } from '../../model.ts';
import { cartonExtractor } from './snapshot.ts';

export const extractors: Extractor[] = [cartonExtractor];
