import type { Extractor } from '../../model.ts';
import { homebrewExtractor } from './brew.ts';

export const extractors: Extractor[] = [homebrewExtractor];
