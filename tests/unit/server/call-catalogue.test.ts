// The route catalogue behind `npm run calls` and the 501/404 decision.
import { describe, expect, it } from 'vitest';
import { callsCommand } from '../../../cli/commands/calls.ts';
import { specCalls } from '../../../contract/spec/calls.ts';
import { isSpecCall, listServerRoutes } from '../../../server/call-catalogue.ts';

describe('listServerRoutes', () => {
  const routes = listServerRoutes();
  const find = (method: string | null, path: string) => routes.find((r) => r.method === method && r.path === path);

  it('lists every spec call once, binary variants as their own paths', () => {
    const keys = routes.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const call of specCalls) expect(find(call.method, call.path), `${call.method} ${call.path}`).toBeDefined();
    expect(find('POST', '/api/statistic/project/summary')).toEqual({ method: 'POST', path: '/api/statistic/project/summary', implemented: true });
    expect(find('POST', '/api/binary/statistic/project/summary')).toEqual({ method: 'POST', path: '/api/binary/statistic/project/summary', implemented: true });
    expect(find('POST', '/api/binary/subject/list')).toEqual({ method: 'POST', path: '/api/binary/subject/list', implemented: true });
    expect(find('GET', '/api/binary/user/self')).toBeUndefined();
  });

  it('marks implemented calls, including the server\'s own', () => {
    expect(find('POST', '/api/login')?.implemented).toBe(true);
    expect(find('GET', '/api/system/access/allUser/list')?.implemented).toBe(true);
    expect(find('POST', '/api/logout')).toEqual({ method: 'POST', path: '/api/logout', implemented: true });
    expect(find('GET', '/api/health')).toEqual({ method: 'GET', path: '/api/health', implemented: true });
    expect(find('GET', '/api/ssh/list')?.implemented).toBe(false);
    expect(find('POST', '/api/analysis')?.implemented).toBe(true);
  });

  it('is what `calls` prints', () => {
    expect(JSON.parse(callsCommand())).toEqual(routes);
  });
});

describe('isSpecCall', () => {
  it('matches braces as one path segment and respects the method', () => {
    expect(isSpecCall('GET', '/api/subject/12')).toBe(true);
    expect(isSpecCall('GET', '/api/subject/12/extra')).toBe(false);
    expect(isSpecCall('PATCH', '/api/ssh/list')).toBe(false);
    expect(isSpecCall('GET', '/api/ssh/list?x=1')).toBe(true);
  });

  it('treats a spec call without a method as any method', () => {
    expect(isSpecCall('DELETE', '/api/score/strategy/3')).toBe(true);
  });

  it('does not treat regex characters in paths as patterns', () => {
    expect(isSpecCall('GET', '/apiXsubject/12')).toBe(false);
  });
});
