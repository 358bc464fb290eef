// The shapes every area repeats: nullable fields, row ids and their path parameters, comma-separated
// id lists, delete counts, search keywords, paging and pages. Area files (contract/api/<area>.ts,
// contract/api/result/, contract/ipc/) import them from here and never define their own copy, so a
// list call of any area pages the same way.
import { Type, type Static, type TSchema } from 'typebox';

/** A field that is always present but may be `null` (never left out): `T | null`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A row id: a positive integer (a new schema object at each use). */
export const Id = () => Type.Integer({ minimum: 1 });

/** Path parameters of a call on one row: `/api/…/{id}`, a row id. */
export const IdParams = Type.Object({ id: Id() });

/** What a delete answers: how many rows it removed. */
export const DeletedSchema = Type.Object({ deleted: Type.Integer() });

/** An optional free-text search field of a list filter, 200 characters at most. */
export const Keyword = Type.Optional(Type.String({ maxLength: 200 }));

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

/**
 * A page's schema. A list that answers more than the page (counts for tabs, the run it read) spreads
 * it after its own fields: `Type.Object({ counts, ...PageSchema(row).properties })`.
 */
export const PageSchema = <T extends TSchema>(row: T) =>
  Type.Object({ content: Type.Array(row), total: Type.Integer({ minimum: 0 }) });
