// Shapes of the spec's catalogues (shared/spec/calls.json and routes.json), as shipped.
import type { HttpMethod } from '../api/define.ts';

export interface SpecCall {
  /** null where the spec states no method. */
  method: HttpMethod | null;
  /** Absolute path, parameters in braces; calls whose URL the caller supplies are left out. */
  path: string;
  /** The binary product calls it with /binary inserted after /api. */
  binaryVariant: boolean;
  area: string;
  query: string[];
}

export interface SpecRoute {
  /** Hash path, e.g. /project/analysis/details. */
  path: string;
  area: string;
  tabs: string[];
  query: string[];
  /** An area prefix that only holds children. */
  parent: boolean;
}
