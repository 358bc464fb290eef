import type { Extractor } from '../../model.ts';
import { pomExtractor } from './pom.ts';

export const extractors: Extractor[] = [pomExtractor];
