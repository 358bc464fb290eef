import type { Extractor } from '../../model.ts';
import { versionStringExtractor } from './version-strings.ts';

export const extractors: Extractor[] = [versionStringExtractor];
