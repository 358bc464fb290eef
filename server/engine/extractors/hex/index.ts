import type { Extractor } from '../../model.ts';
import { hexExtractor } from './mix-lock.ts';
import { rebarExtractor } from './rebar-lock.ts';

export const extractors: Extractor[] = [hexExtractor, rebarExtractor];
