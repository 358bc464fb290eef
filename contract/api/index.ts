// Every call the platform implements, by area. The server registers exactly these; the rest of
// spec/calls.json answers 服务未实现 (HTTP 501) until its area is built.
import { sessionCalls } from './session.ts';
import type { CallSpec } from './define.ts';

export const implementedCalls: Record<string, CallSpec> = {
  ...sessionCalls,
};

export * from './define.ts';
export * as session from './session.ts';
