import type { Extractor } from '../../model.ts';
import { pubExtractor } from './pubspec-lock.ts';

export const extractors: Extractor[] = [pubExtractor];
