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
 * A btree over a lower-cased handle in byte order (`text_pattern_ops`): it answers `=` and prefix
 * `like` whatever the database's collation, and hands the matches out in order (`using ~<~`).
 */
export const handlePrefixIndex = (on: IndexBuilderOn, handle: AnyPgColumn): IndexBuilder =>
  on.using('btree', sql`${lowerHandle(handle)} text_pattern_ops`);

/** A trigram GIN index (pg_trgm, migration 0033): `like '%text%'` without reading every row. */
export const trigramIndex = (on: IndexBuilderOn, text: SQL): IndexBuilder =>
  on.using('gin', sql`${text} gin_trgm_ops`);
