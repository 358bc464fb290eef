// Every extractor the scan offers files to. Each ecosystem folder exports its own list.
import type { Extractor } from '../model.ts';
import { extractors as cargo } from './cargo/index.ts';
import { extractors as composer } from './composer/index.ts';
import { extractors as golang } from './golang/index.ts';
import { extractors as python } from './python/index.ts';
import { extractors as ruby } from './ruby/index.ts';

export const allExtractors: readonly Extractor[] = [...cargo, ...composer, ...golang, ...python, ...ruby];
