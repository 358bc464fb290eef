import type { Extractor } from '../../model.ts';
import { wordpressPluginExtractor } from './plugins.ts';

export const extractors: Extractor[] = [wordpressPluginExtractor];
