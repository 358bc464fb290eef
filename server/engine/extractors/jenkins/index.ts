import type { Extractor } from '../../model.ts';
import { jenkinsPluginsExtractor } from './plugins.ts';

export const extractors: Extractor[] = [jenkinsPluginsExtractor];
