// The shapes every area repeats: nullable fields, row ids, comma-separated id lists, paging and
// pages. Area files (contract/api/<area>.ts, contract/api/result/, contract/ipc/) import them from
// here and never define their own copy, so a list call of any area pages the same way.
import { Type, type Static, type TSchema } from 'typebox';

/** A field that is always present but may be `null` (never left out): `T | null`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A row id: a positive integer. A new schema each call, as TypeBox options are per use. */
export const Id = () => Type.Integer({ minimum: 1 });

const ID_CSV_PATTERN = '^\\d+(,\\d+)*$';

/**
 * Ids as one comma-separated string (`?ids=1,2,3`), the spec's way of naming several rows in a
 * query string (a query array is ambiguous with one item). At most `maxLength` characters;
 * `minLength: 1` where the call states it (the pattern already refuses an empty string).
 */
export const IdCsv = (maxLength: number, options: { minLength?: number } = {}) =>
  Type.String({ ...options, maxLength, pattern: ID_CSV_PATTERN });

/** A query holding one comma-separated id list under `name` (`?projectIds=1,2`), 4000 characters at most. */
export const IdsQuery = (name: string) => Type.Object({ [name]: IdCsv(4000) });

// ---- paging -------------------------------------------------------------------------------------

/** Rows a page when the query says none: what the list screens show by default. */
export const DEFAULT_PAGE_SIZE = 15;

/**
 * Paging of every list call, in the query as the spec writes `?page&size`: page counts from 1,
 * size is 1..500. Absent values are 1 and DEFAULT_PAGE_SIZE (the server fills them in
 * server/routes/shared.ts `pagingOf`). An area that sorts adds its own `sort`
 * field with the columns it allows (`...PagingQuerySchema.properties, sort: …`).
 */
export const PagingQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
});
export type PagingQuery = Static<typeof PagingQuerySchema>;

/** A page of a list: rows and the total count (the envelope's `data` of every list call). */
export interface Page<T> {
  content: T[];
  total: number;
}

export const PageSchema = <T extends TSchema>(row: T) =>
  Type.Object({ content: Type.Array(row), total: Type.Integer({ minimum: 0 }) });
