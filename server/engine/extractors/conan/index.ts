import type { Extractor } from '../../model.ts';
import { conanExtractor } from './conan-lock.ts';

export const extractors: Extractor[] = [conanExtractor];
