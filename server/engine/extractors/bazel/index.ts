import type { Extractor } from '../../model.ts';
import { bazelLockExtractor, bazelModuleExtractor } from './lock.ts';

export const extractors: Extractor[] = [bazelLockExtractor, bazelModuleExtractor];
