import type { Extractor } from '../../model.ts';
import { cargoAuditableExtractor } from './cargo-auditable.ts';
import { versionStringExtractor } from './version-strings.ts';

export const extractors: Extractor[] = [versionStringExtractor, cargoAuditableExtractor];
