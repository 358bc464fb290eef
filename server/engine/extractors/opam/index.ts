import type { Extractor } from '../../model.ts';
import { opamExtractor } from './opam.ts';

export const extractors: Extractor[] = [opamExtractor];
