// Every extractor the scan offers files to. Each ecosystem folder exports its own list.
import type { Extractor } from '../model.ts';
import { extractors as python } from './python/index.ts';

export const allExtractors: readonly Extractor[] = [...python];
