// RTK Query endpoints derived from the contract's call declarations (contract/api/): one call, one
// endpoint. An area declares each endpoint with `query(call)` or `mutation(call)`:
//
//   endpoints: (build) => defineEndpoints(build, 'license', {
//     provides: ['License'], invalidates: ['License'],
//     endpoints: {
//       licenseDetail: query(detail, { args: (id: string) => ({ params: { id } }) }),
//       editLicenseLevel: mutation(systemEdit),
//     },
//   })
//
// - The kind follows the call's method: a GET is a query, anything else a mutation. A POST that
//   only reads (a list with its filter in the body) is a query marked `read`; a GET that starts
//   something (an export job) is a mutation marked `action`. Anything else throws at start-up.
// - The request's parts come from the declaration: a call with one part (params, query or body)
//   takes that part as the hook's argument, a call with several takes `{ params, query, body }`,
//   a call with none takes nothing; `args` maps another argument (a bare id) to the parts, checked
//   against the declaration's types.
// - Tags are declared once per area (`provides` for queries, `invalidates` for mutations); an
//   endpoint overrides them only where it differs.
// - Every endpoint is quiet (its screen shows a failure in place); `withMessage` keeps the envelope
//   message of a success. Both are handled by the shared base query (baseQuery.ts).
// - queryOver/mutationOver: one endpoint for a family of calls, the argument picking the call (the
//   report list of a kind, the source or binary mark) or several in turn (a delete per id).
// - derivedQueries: an endpoint computed from other endpoints (never from a call directly).
//
// Every endpoint is recorded (endpointRegistry) with the calls it sends, so a test can show that
// no call has two endpoints and that every endpoint maps to declared calls.
import type { EndpointBuilder, MutationDefinition, QueryDefinition, QueryReturnValue } from '@reduxjs/toolkit/query';
import type { CallBody, CallData, CallParams, CallQuery, CallSpec } from '../../contract/api/define.ts';
import type { ApiError, ApiExtraOptions, ApiMeta, PlatformBaseQuery } from './baseQuery.ts';
import { call, type CallArgs, type CallRef } from './request.ts';

type Kind = 'query' | 'mutation';
type Part = 'params' | 'query' | 'body';
/** A declared call, or a spec call not declared yet (request.ts specCallRef: no parts, unknown data). */
type Call = CallSpec | CallRef;
type Declared<T> = [T] extends [undefined] ? false : true;
type PartsOf<C> = C extends CallSpec ? { params: CallParams<C>; query: CallQuery<C>; body: CallBody<C> } : { params: undefined; query: undefined; body: undefined };
type DataOf<C> = C extends CallSpec ? CallData<C> : unknown;
type DeclaredParts<C> = { [K in Part]: Declared<PartsOf<C>[K]> extends true ? K : never }[Part];
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/** The parts of a request a call declares, each required. */
export type RequestOf<C> = { [K in DeclaredParts<C>]: PartsOf<C>[K] };

/** The hook's argument when an endpoint maps none: the one part, all parts, or nothing. */
export type DefaultArg<C> = [DeclaredParts<C>] extends [never] ? void : true extends IsUnion<DeclaredParts<C>> ? RequestOf<C> : PartsOf<C>[DeclaredParts<C>];

/** An endpoint as an area declares it; defineEndpoints turns it into an RTK Query definition. */
export interface EndpointDecl<K extends Kind, A, R, Tag extends string = never> {
  readonly kind: K;
  readonly calls: readonly CallRef[];
  /** Declared `read` (a POST query) or `action` (a GET mutation). */
  readonly marked: boolean;
  /** The requests one use of the endpoint sends, in order. */
  readonly requests: (arg: A) => CallArgs[];
  /** The answer from the answers of the requests (one request: its data, transformed). */
  readonly combine: (answers: unknown[]) => R;
  readonly provides?: readonly Tag[] | undefined;
  readonly invalidates?: readonly Tag[] | undefined;
  readonly extra: ApiExtraOptions;
}

interface CommonOptions<Tag extends string> {
  /** The tags this endpoint provides (queries) or invalidates (mutations), instead of the area's. */
  tags?: readonly Tag[];
}

interface CallOptions<C, A, R, Tag extends string> extends CommonOptions<Tag> {
  /** The hook's argument to the request's parts (default: DefaultArg). */
  args?: (arg: A) => RequestOf<C>;
  transform?: (data: DataOf<C>) => R;
}

interface MessageOptions {
  /** Keep the envelope message of a success (`{ ...data, message }`), see baseQuery.ts. */
  withMessage?: true;
}

function defaultRequest(spec: Call): (arg: unknown) => Partial<Record<Part, unknown>> {
  const declared = (['params', 'query', 'body'] as const).filter((part) => (spec as Partial<CallSpec>)[part] !== undefined);
  if (declared.length === 0) return () => ({});
  if (declared.length === 1) return (arg) => ({ [declared[0]!]: arg });
  return (arg) => arg as Partial<Record<Part, unknown>>;
}

function checkKind(spec: Call, kind: Kind, marked: boolean): void {
  const isGet = spec.method === 'GET';
  if (kind === 'query' && !isGet && !marked) throw new Error(`${spec.name} 是 ${spec.method}：只读取数据时声明为 query(…, { read: true })，否则声明为 mutation`);
  if (kind === 'mutation' && isGet && !marked) throw new Error(`${spec.name} 是 GET：启动任务时声明为 mutation(…, { action: true })，否则声明为 query`);
}

function single<K extends Kind, C extends Call, A, R, Tag extends string>(kind: K, spec: C, options: CallOptions<C, A, R, Tag> & MessageOptions, marked: boolean): EndpointDecl<K, A, R, Tag> {
  checkKind(spec, kind, marked);
  const parts = (options.args as ((arg: A) => object) | undefined) ?? defaultRequest(spec);
  const transform = options.transform as ((data: unknown) => R) | undefined;
  return {
    kind,
    calls: [spec],
    marked,
    requests: (arg) => [call(spec, parts(arg) as Omit<CallArgs, 'call'>)],
    combine: ([data]) => (transform ? transform(data) : (data as R)),
    ...(kind === 'query' ? { provides: options.tags } : { invalidates: options.tags }),
    extra: { quiet: true, ...(options.withMessage ? { withMessage: true } : {}) },
  };
}

type Answer<C, O> = O extends { transform: (data: any) => infer R } ? R : O extends { withMessage: true } ? DataOf<C> & { message: string } : DataOf<C>;
type ArgOf<C, O> = O extends { args: (arg: infer A) => any } ? A : DefaultArg<C>;

/** A read: a GET, or a POST marked `read` (filters in the body). */
export function query<C extends Call, O extends CallOptions<C, any, any, Tag> & { read?: true }, Tag extends string = never>(spec: C, options?: O & CallOptions<C, ArgOf<C, O>, Answer<C, O>, Tag>): EndpointDecl<'query', ArgOf<C, O>, Answer<C, O>, Tag> {
  return single('query', spec, options ?? {}, options?.read === true);
}

/** A change: anything but a GET, or a GET marked `action` (it starts a job). */
export function mutation<C extends Call, O extends CallOptions<C, any, any, Tag> & MessageOptions & { action?: true }, Tag extends string = never>(spec: C, options?: O & CallOptions<C, ArgOf<C, O>, Answer<C, O>, Tag>): EndpointDecl<'mutation', ArgOf<C, O>, Answer<C, O>, Tag> {
  return single('mutation', spec, options ?? {}, options?.action === true);
}

/** A request of one call of a family, from its parts. */
export type Requesters<Cs extends Record<string, CallSpec>> = { [K in keyof Cs]: (parts: RequestOf<Cs[K]>) => CallArgs };

interface OverOptions<Cs extends Record<string, CallSpec>, A, R, Tag extends string> extends CommonOptions<Tag> {
  /** The requests for an argument, made with `to.<call>(parts)`. */
  requests: (arg: A, to: Requesters<Cs>) => CallArgs[];
  /** The answer from the answers of the requests. */
  combine: (answers: Array<CallData<Cs[keyof Cs]>>) => R;
}

function over<K extends Kind, Cs extends Record<string, CallSpec>, A, R, Tag extends string>(kind: K, calls: Cs, options: OverOptions<Cs, A, R, Tag>): EndpointDecl<K, A, R, Tag> {
  for (const spec of Object.values(calls)) checkKind(spec, kind, false);
  const to = Object.fromEntries(Object.entries(calls).map(([key, spec]) => [key, (parts: object) => call(spec, parts as Omit<CallArgs, 'call'>)])) as Requesters<Cs>;
  return {
    kind,
    calls: Object.values(calls),
    marked: false,
    requests: (arg) => options.requests(arg, to),
    combine: (answers) => options.combine(answers as Array<CallData<Cs[keyof Cs]>>),
    ...(kind === 'query' ? { provides: options.tags } : { invalidates: options.tags }),
    extra: { quiet: true },
  };
}

/** One query for a family of GET calls, the argument picking the call. */
export const queryOver = <Cs extends Record<string, CallSpec>, A, R, Tag extends string = never>(calls: Cs, options: OverOptions<Cs, A, R, Tag>) => over('query', calls, options);

/** One mutation for a family of calls (one of them, or several in turn). */
export const mutationOver = <Cs extends Record<string, CallSpec>, A, R, Tag extends string = never>(calls: Cs, options: OverOptions<Cs, A, R, Tag>) => over('mutation', calls, options);

// ---- the registry --------------------------------------------------------------------------------

export interface RegisteredCall {
  name: string;
  method: string;
  path: string;
}

export type EndpointRecord =
  | { area: string; kind: Kind; calls: RegisteredCall[]; /** Declared `read` or `action`. */ marked: boolean }
  | { area: string; kind: 'query'; derivedFrom: string[] };

const registry = new Map<string, EndpointRecord>();
const endpointOfCall = new Map<string, string>();

/**
 * Records an endpoint; a second endpoint for a call, or a second area defining a name, throws at
 * start-up. (The same endpoint defined again, as a module reloaded in development, replaces itself.)
 */
function record(name: string, entry: EndpointRecord): void {
  const known = registry.get(name);
  if (known && known.area !== entry.area) throw new Error(`接口端点重复定义：${name}（${known.area} 与 ${entry.area}）`);
  if ('calls' in entry) {
    for (const c of entry.calls) {
      const other = endpointOfCall.get(c.name);
      if (other !== undefined && other !== name) throw new Error(`接口 ${c.name} 已有端点 ${other}，不能再定义 ${name}：一个接口只有一个端点`);
    }
    for (const c of entry.calls) endpointOfCall.set(c.name, name);
  }
  registry.set(name, entry);
}

/** Every endpoint defined so far (the api modules that were imported), by name. */
export const endpointRegistry = (): ReadonlyMap<string, EndpointRecord> => registry;

// ---- definitions ---------------------------------------------------------------------------------

type Definitions<D, TagTypes extends string> = {
  [K in keyof D]: D[K] extends EndpointDecl<'query', infer A, infer R, any>
    ? QueryDefinition<A, PlatformBaseQuery, TagTypes, R, 'platform'>
    : D[K] extends EndpointDecl<'mutation', infer A, infer R, any>
      ? MutationDefinition<A, PlatformBaseQuery, TagTypes, R, 'platform'>
      : never;
};

type Result = QueryReturnValue<unknown, ApiError, ApiMeta | undefined>;

/** The RTK Query definitions of an area's endpoints; `provides`/`invalidates` are the area's tags. */
export function defineEndpoints<TagTypes extends string, D extends Record<string, EndpointDecl<Kind, any, any, TagTypes>>>(
  build: EndpointBuilder<PlatformBaseQuery, TagTypes, 'platform'>,
  area: string,
  declaration: { provides?: readonly TagTypes[]; invalidates?: readonly TagTypes[]; endpoints: D },
): Definitions<D, TagTypes> {
  const out: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(declaration.endpoints)) {
    record(name, { area, kind: decl.kind, calls: decl.calls.map(({ name: call, method, path }) => ({ name: call, method, path })), marked: decl.marked });
    const run = async (arg: unknown, baseQuery: (args: CallArgs) => Promise<Result> | Result): Promise<Result> => {
      const answers: unknown[] = [];
      let meta: ApiMeta | undefined;
      for (const request of decl.requests(arg)) {
        const answer = await baseQuery(request);
        if (answer.error) return answer;
        answers.push(answer.data);
        meta = answer.meta;
      }
      return { data: decl.combine(answers), meta };
    };
    const common = { queryFn: (arg: unknown, _api: unknown, _extra: unknown, baseQuery: (args: CallArgs) => Promise<Result> | Result) => run(arg, baseQuery), extraOptions: decl.extra };
    out[name] =
      decl.kind === 'query'
        ? build.query<unknown, unknown>({ ...common, providesTags: [...(decl.provides ?? declaration.provides ?? [])] } as never)
        : build.mutation<unknown, unknown>({ ...common, invalidatesTags: [...(decl.invalidates ?? declaration.invalidates ?? [])] } as never);
  }
  return out as Definitions<D, TagTypes>;
}

/**
 * Endpoints computed from other endpoints of the registry (dispatching them, never sending a call
 * themselves): `from` names them.
 */
export function derivedQueries<T extends Record<string, { from: readonly string[]; endpoint: QueryDefinition<any, PlatformBaseQuery, any, any, 'platform'> }>>(area: string, derived: T): { [K in keyof T]: T[K]['endpoint'] } {
  const out: Record<string, unknown> = {};
  for (const [name, { from, endpoint }] of Object.entries(derived)) {
    record(name, { area, kind: 'query', derivedFrom: [...from] });
    out[name] = endpoint;
  }
  return out as { [K in keyof T]: T[K]['endpoint'] };
}
