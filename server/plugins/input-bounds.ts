// Input bounds of every call (issue 13, item 8), in one place rather than per route: a request
// integer whose schema states no range is a database integer (MAX_DB_INTEGER), so 99999999999 or
// 1e300 in a query, path or body is refused with 400 and a Chinese reason by the validation
// handler (plugins/errors.ts), never handed to a query that would fail with 500. A field that may
// hold more (byte sizes, offsets) declares its own maximum in the contract and keeps it. Ids and
// paging carry their bounds in the contract itself (contract/api/kit.ts: Id, IdCsv, PagingQuerySchema).
import type { FastifySchemaCompiler } from 'fastify';
import { TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { TSchema } from 'typebox';
import { MAX_DB_INTEGER } from '../../contract/api/kit.ts';

/** A copy of an object with every property, the non-enumerable ones TypeBox keeps its markers in included. */
const copy = <T extends object>(value: T): T => Object.defineProperties(Object.create(Object.getPrototypeOf(value) as object | null), Object.getOwnPropertyDescriptors(value)) as T;

/**
 * The schema with each integer that states no maximum (minimum) bounded to the database integer's
 * range; the given schema is left as it is (the contract's objects are shared with the docs).
 */
export function withIntegerBounds<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((item: unknown) => withIntegerBounds(item)) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out = copy(schema as Record<string, unknown>);
  for (const key of Object.keys(out)) out[key] = withIntegerBounds(out[key]);
  if (out.type === 'integer') {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = MAX_DB_INTEGER;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = -MAX_DB_INTEGER - 1;
  }
  return out as T;
}

/** TypeBox's validator on the bounded schema. */
export const boundedValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, ...rest }) =>
  TypeBoxValidatorCompiler({ ...rest, schema: withIntegerBounds(schema) });
