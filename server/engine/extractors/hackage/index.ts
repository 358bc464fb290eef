import type { Extractor } from '../../model.ts';
import { cabalFreezeExtractor } from './cabal-freeze.ts';
import { stackLockExtractor } from './stack-lock.ts';

export const extractors: Extractor[] = [stackLockExtractor, cabalFreezeExtractor];
