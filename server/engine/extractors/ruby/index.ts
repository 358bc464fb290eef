// Ruby: Gemfile.lock / gems.locked (with the Gemfile's groups) and *.gemspec.
import type { Extractor } from '../../model.ts';
import { gemfileLockExtractor } from './gemfile-lock.ts';
import { gemspecExtractor } from './gemspec.ts';

export { gemfileLockExtractor, parseGemfileLock } from './gemfile-lock.ts';
export { gemspecExtractor, parseGemspec } from './gemspec.ts';
export { parseGemfileGroups } from './gemfile.ts';

export const extractors: Extractor[] = [gemfileLockExtractor, gemspecExtractor];
