import type { Extractor } from '../../model.ts';
import { githubActionsExtractor } from './workflows.ts';

export const extractors: Extractor[] = [githubActionsExtractor];
