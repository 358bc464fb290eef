import type { Extractor } from '../../model.ts';
import { rockspecExtractor } from './rockspec.ts';

export const extractors: Extractor[] = [rockspecExtractor];
