// Maven: pom.xml, and Java archives (jar, war, ear) identified by their packaged metadata.
import type { Extractor } from '../../model.ts';
import { javaArchiveExtractor } from './archive.ts';
import { pomExtractor } from './pom.ts';

export { javaArchiveExtractor, javaArchiveExtractorWith, nameAndVersionOf, parseManifest, parseProperties } from './archive.ts';

export const extractors: Extractor[] = [pomExtractor, javaArchiveExtractor];
