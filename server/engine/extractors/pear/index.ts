import type { Extractor } from '../../model.ts';
import { pearRegistryExtractor } from './registry.ts';

export const extractors: Extractor[] = [pearRegistryExtractor];
