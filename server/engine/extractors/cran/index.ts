import type { Extractor } from '../../model.ts';
import { descriptionExtractor } from './description.ts';
import { renvExtractor } from './renv-lock.ts';

export const extractors: Extractor[] = [renvExtractor, descriptionExtractor];
