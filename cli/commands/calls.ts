// `cairn calls`: every platform call the spec lists (binary variants as their own paths) plus the
// server's own, each marked implemented or not, as JSON.
import { listServerRoutes } from '../../server/call-catalogue.ts';

export function callsCommand(): string {
  return JSON.stringify(listServerRoutes(), null, 2);
}
