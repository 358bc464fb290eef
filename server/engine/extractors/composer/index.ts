// PHP: composer.lock and vendor/composer/installed.json.
import type { Extractor } from '../../model.ts';
import { composerInstalledExtractor, composerLockExtractor } from './composer.ts';

export { composerInstalledExtractor, composerLockExtractor, composerPurl } from './composer.ts';

export const extractors: Extractor[] = [composerLockExtractor, composerInstalledExtractor];
