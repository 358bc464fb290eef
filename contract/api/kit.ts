// The shapes every area repeats: nullable fields, row ids and their path parameters, comma-separated
// id lists, delete counts, search keywords, the fields that name a package, a record's author or the
// project a row is about, paging, pages and paged list calls. Area files (contract/api/<area>.ts,
// contract/api/result/, contract/ipc/) import them from here and never define their own copy, so a
// list call of any area pages the same way.
//
// A field group (`…Fields`) is a plain object of property schemas, spread into a row where the
// fields stand: `Type.Object({ id: Type.Integer(), ...AuthorFields })`.
import { Type, type Static, type TSchema } from 'typebox';

/** A field that is always present but may be `null` (never left out): `T | null`. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * The largest whole number a request may carry where it is not declared otherwise: the databases'
 * integer column (PostgreSQL `integer`, 2^31 − 1). Row ids are such columns. The server bounds
 * every request integer without its own maximum to it (server/plugins/input-bounds.ts), so
 * `99999999999` or `1e300` is refused with 400 before a query sees it; a field that may be larger
 * (byte sizes, offsets) declares its own maximum.
 */
export const MAX_DB_INTEGER = 2_147_483_647;

/** A row id: a positive integer the database can hold (a new schema object at each use). */
export const Id = () => Type.Integer({ minimum: 1, maximum: MAX_DB_INTEGER });

/** Path parameters of a call on one row: `/api/…/{id}`, a row id. */
export const IdParams = Type.Object({ id: Id() });

/** What a delete answers: how many rows it removed. */
export const DeletedSchema = Type.Object({ deleted: Type.Integer() });

/** An optional free-text search field of a list filter, 200 characters at most. */
export const Keyword = Type.Optional(Type.String({ maxLength: 200 }));

/**
 * One id of a list: 0 … 2147483647 (MAX_DB_INTEGER), leading zeros allowed (0 is dropped by the
 * server's parseIds). Larger numbers do not match, so the list is refused with 400.
 */
const ID_IN_CSV = '0*(?:\\d{1,9}|1\\d{9}|20\\d{8}|21[0-3]\\d{7}|214[0-6]\\d{6}|2147[0-3]\\d{5}|21474[0-7]\\d{4}|214748[0-2]\\d{3}|2147483[0-5]\\d{2}|21474836[0-3]\\d|214748364[0-7])';
const ID_CSV_PATTERN = `^${ID_IN_CSV}(,${ID_IN_CSV})*$`;

/**
 * Ids as one comma-separated string (`?ids=1,2,3`), the spec's way of naming several rows in a
 * query string (a query array is ambiguous with one item). At most `maxLength` characters;
 * `minLength: 1` where the call states it (the pattern already refuses an empty string).
 */
export const IdCsv = (maxLength: number, options: { minLength?: number } = {}) =>
  Type.String({ ...options, maxLength, pattern: ID_CSV_PATTERN });

/** A query holding one comma-separated id list under `name` (`?projectIds=1,2`), 4000 characters at most. */
export const IdsQuery = (name: string) => Type.Object({ [name]: IdCsv(4000) });

// ---- field groups ---------------------------------------------------------------------------------

/**
 * Who made a record and when: the user's id and display name, both null once the account is
 * deleted, and the ISO-8601 time it was made (mark logs, knowledge-base import records).
 */
export const AuthorFields = {
  userId: Nullable(Type.Integer()),
  userName: Nullable(Type.String()),
  createdAt: Type.String(),
};

/**
 * A package as a row names it: its purl and the purl's parts (result rows, the recommended
 * versions, the knowledge base's component check).
 */
export const PackageFields = {
  purl: Type.String(),
  /** purl type: npm, maven, pypi, golang, … */
  ecosystem: Type.String(),
  name: Type.String(),
  /** '' when the input pins no version (risk 64 未知版本). */
  version: Type.String(),
};

/** The project (an analysed source of an 应用) a row is about: its id and name. */
export const ProjectRefFields = {
  projectId: Type.Integer(),
  projectName: Type.String(),
};

/** The 应用 (subject) a row is about: its id and name. */
export const SubjectRefFields = {
  subjectId: Type.Integer(),
  subjectName: Type.String(),
};

/**
 * A project with where it stands: its 应用, the 应用 version it is labelled with (null: none) and
 * how its input is fetched (getCodeType, a CODE_TYPE_LABEL code). The task list's rows and the
 * task-detail header name their project so.
 */
export const ProjectContextFields = {
  ...ProjectRefFields,
  ...SubjectRefFields,
  versionId: Nullable(Type.Integer()),
  versionName: Nullable(Type.String()),
  getCodeType: Type.Integer(),
};

// ---- paging -------------------------------------------------------------------------------------

/** Rows a page when the query says none: what the list screens show by default. */
export const DEFAULT_PAGE_SIZE = 15;

/** The largest page size a list answers: a bigger one is refused (400), not served. */
export const MAX_PAGE_SIZE = 500;
/** The largest page number: far beyond any list, small enough that page × size stays exact. */
export const MAX_PAGE = 1_000_000;

/**
 * Paging of every list call, in the query as the spec writes `?page&size`: page counts from 1
 * (MAX_PAGE at most), size is 1..MAX_PAGE_SIZE; anything else is refused with 400. Absent values are 1 and DEFAULT_PAGE_SIZE (the server fills them in
 * server/routes/shared.ts `pagingOf`). An area that sorts adds its own `sort`
 * field with the columns it allows (`...PagingQuerySchema.properties, sort: …`).
 */
export const PagingQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE })),
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
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

/**
 * The schemas of a paged list call, spread into its declaration: paging in the query, a page of
 * `row` as the answer (`defineCall({ …, ...pagedList(RowSchema), permission })`).
 */
export const pagedList = <R extends TSchema>(row: R) => ({ query: PagingQuerySchema, response: PageSchema(row) });

/** A paged list call whose filter is the body: `...filteredList(FilterSchema, RowSchema)`. */
export const filteredList = <B extends TSchema, R extends TSchema>(filter: B, row: R) =>
  ({ query: PagingQuerySchema, body: filter, response: PageSchema(row) });
