import type { Extractor } from '../../model.ts';
import { cocoapodsExtractor } from './podfile-lock.ts';

export const extractors: Extractor[] = [cocoapodsExtractor];
