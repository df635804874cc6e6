import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, IndexBuilder, IndexBuilderOn } from 'drizzle-orm/pg-core';

// Global search (issue 38) reads these expressions through the indexes below, so each one is written
// once and used by both the table's index and the search query: the database uses an index only for
// the very expression it holds.

/** A handle, lower-cased: exact and prefix matches (`lower(handle) like 'shop%'`). */
export const lowerHandle = (handle: AnyPgColumn): SQL => sql`lower(${handle})`;

/**
 * Columns as one lower-cased text, for substring matches through a trigram index. `||` and `coalesce`
 * rather than `concat_ws`, which PostgreSQL does not count as immutable and so will not index.
 */
export const searchText = (...columns: AnyPgColumn[]): SQL =>
  sql`lower(${sql.join(
    columns.map((column) => sql`coalesce(${column}, '')`),
    sql` || ' ' || `,
  )})`;

/**
 * A btree over a lower-cased handle in byte order (`text_pattern_ops`), behind the column that scopes the
 * row to a tenant (its environment): it answers `=` and prefix `like` whatever the database's collation
 * within one environment, and hands that environment's matches out in order (`using ~<~`), so a search
 * never walks another tenant's handles (issue 38: no tenant can delay another's work).
 */
export const handlePrefixIndex = (
  on: IndexBuilderOn,
  scope: AnyPgColumn,
  handle: AnyPgColumn,
): IndexBuilder => on.using('btree', scope, sql`${lowerHandle(handle)} text_pattern_ops`);

/**
 * A trigram GIN index (pg_trgm, migration 0033) led by the row's tenant scope (its environment or
 * organization, through btree_gin): `like '%text%'` reads only the caller's rows, without reading every
 * row or any other tenant's.
 */
export const trigramIndex = (on: IndexBuilderOn, scope: AnyPgColumn, text: SQL): IndexBuilder =>
  on.using('gin', scope, sql`${text} gin_trgm_ops`);
