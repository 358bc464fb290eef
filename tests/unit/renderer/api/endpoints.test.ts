// One call, one endpoint: every RTK Query endpoint of the platform api is derived from contract
// call declarations by renderer/api/endpoints.ts, no call has two endpoints, every endpoint sends
// declared calls (or spec calls not declared yet) with the kind their method says, and derived
// endpoints only read other endpoints. Every api module of renderer/api/ is loaded first, so an
// area added later is covered without touching this test.
import { readdirSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { implementedCalls, license } from '../../../../contract/api/index.ts';
import { specCalls } from '../../../../contract/spec/calls.ts';
import { defineEndpoints, endpointRegistry, query, type EndpointRecord } from '../../../../renderer/api/endpoints.ts';
import { platformApi } from '../../../../renderer/api/platformApi.ts';

const API_DIR = new URL('../../../../renderer/api/', import.meta.url);

beforeAll(async () => {
  for (const file of readdirSync(API_DIR).filter((f) => f.endsWith('.ts'))) await import(new URL(file, API_DIR).href);
});

type CallEntry = Extract<EndpointRecord, { calls: unknown }>;
const callEndpoints = () => [...endpointRegistry()].filter((e): e is [string, CallEntry] => 'calls' in e[1]);

/** Calls sent by more than one endpoint, with those endpoints. */
function sharedCalls(entries: ReadonlyArray<[string, CallEntry]>): Record<string, string[]> {
  const byCall: Record<string, string[]> = {};
  for (const [endpoint, entry] of entries) for (const c of entry.calls) (byCall[c.name] ??= []).push(endpoint);
  return Object.fromEntries(Object.entries(byCall).filter(([, endpoints]) => endpoints.length > 1));
}

describe('one call, one endpoint', () => {
  it('every endpoint of the platform api is derived by the helper', () => {
    const unregistered = Object.keys(platformApi.endpoints).filter((name) => !endpointRegistry().has(name));
    expect(unregistered).toEqual([]);
    expect(endpointRegistry().size).toBeGreaterThan(100);
  });

  it('no call has more than one endpoint', () => {
    expect(sharedCalls(callEndpoints())).toEqual({});
  });

  it('the check finds a call with two endpoints', () => {
    const entry = (name: string): CallEntry => ({ area: 'x', kind: 'query', calls: [{ name, method: 'GET', path: '/api/x' }], marked: false });
    expect(sharedCalls([['a', entry('x.list')], ['b', entry('x.list')], ['c', entry('x.other')]])).toEqual({ 'x.list': ['a', 'b'] });
  });

  it('a second endpoint for a call is refused when it is defined', () => {
    expect(() =>
      platformApi.injectEndpoints({ endpoints: (build) => defineEndpoints(build, 'test', { endpoints: { licenseDetailAgain: query(license.detail, { args: (id: string) => ({ params: { id } }) }) } }) }),
    ).toThrow(/license\.detail 已有端点 licenseDetail/);
  });

  it('every endpoint sends declared calls, with their method and path', () => {
    const declared = new Map(Object.values(implementedCalls).map((c) => [c.name, c]));
    const wrong: string[] = [];
    for (const [endpoint, entry] of callEndpoints()) {
      for (const c of entry.calls) {
        const spec = declared.get(c.name);
        // A spec call no area declares yet (request.ts specCallRef) must be in the spec's catalogue.
        const known = spec ? spec.method === c.method && spec.path === c.path : specCalls.some((s) => s.method === c.method && s.path === c.path) && ![...declared.values()].some((d) => d.method === c.method && d.path === c.path);
        if (!known) wrong.push(`${endpoint}: ${c.name} ${c.method} ${c.path}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a GET is a query and anything else a mutation, unless declared otherwise', () => {
    const wrong = callEndpoints()
      .filter(([, e]) => !e.marked && e.calls.some((c) => (c.method === 'GET') !== (e.kind === 'query')))
      .map(([name]) => name);
    expect(wrong).toEqual([]);
    const marked = callEndpoints().filter(([, e]) => e.marked).map(([name, e]) => `${name} ${e.calls[0]!.method}`);
    expect(marked).toContain('vulnerabilityList POST');
    expect(marked).toContain('reportComponentExport GET');
  });

  it('derived endpoints read endpoints that send calls', () => {
    const derived = [...endpointRegistry()].filter(([, e]) => 'derivedFrom' in e) as Array<[string, { derivedFrom: string[] }]>;
    expect(derived.map(([name]) => name)).toContain('vulnerabilityLevelTotals');
    for (const [, e] of derived) for (const from of e.derivedFrom) expect(endpointRegistry().get(from)).toHaveProperty('calls');
  });
});
