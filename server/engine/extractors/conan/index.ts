import type { Extractor } from '../../model.ts';
import { conanExtractor } from './conan-lock.ts';
import { conanfilePyExtractor, conanfileTxtExtractor } from './conanfile.ts';

export const extractors: Extractor[] = [conanExtractor, conanfileTxtExtractor, conanfilePyExtractor];
