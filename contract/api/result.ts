// Result area: filled in by issue 6.
import type { CallSpec } from './define.ts';

export const resultCalls: Record<string, CallSpec> = {};
