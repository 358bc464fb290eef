import type { Extractor } from '../../model.ts';
import { terraformLockExtractor } from './lock-hcl.ts';

export const extractors: Extractor[] = [terraformLockExtractor];
