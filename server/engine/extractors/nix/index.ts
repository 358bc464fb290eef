import type { Extractor } from '../../model.ts';
import { nixStoreExtractor } from './store.ts';

export const extractors: Extractor[] = [nixStoreExtractor];
