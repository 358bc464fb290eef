import type { Extractor } from '../../model.ts';
import { gradleBuildScriptExtractor } from './build-script.ts';
import { gradleCatalogExtractor } from './catalog.ts';
import { gradleLockfileExtractor } from './lockfile.ts';
import { gradleVerificationExtractor } from './verification.ts';

export const extractors: Extractor[] = [gradleLockfileExtractor, gradleVerificationExtractor, gradleCatalogExtractor, gradleBuildScriptExtractor];
