import type { Extractor } from '../../model.ts';
import { condaMetaExtractor } from './conda-meta.ts';
import { condaEnvironmentExtractor } from './environment.ts';

export const extractors: Extractor[] = [condaEnvironmentExtractor, condaMetaExtractor];
