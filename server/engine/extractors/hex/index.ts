import type { Extractor } from '../../model.ts';
import { hexExtractor } from './mix-lock.ts';

export const extractors: Extractor[] = [hexExtractor];
