import { getTableColumns, is, type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, PgJsonb, type PgTable } from 'drizzle-orm/pg-core';
import type { Paging } from '../http/hal.ts';
import type { Db } from './client.ts';

export interface Page<T> {
  items: T[];
  /** Set when the caller asked for a page (contract §1.4); absent → the whole collection. */
  paging?: { page: number; perPage: number; total: number };
}

/**
 * Column types whose JSON value maps back as drizzle's own reading would: timestamps in date mode (the
 * ISO text with its offset), numbers within 2^53, booleans, text and uuids, jsonb as it is. A json
 * column (a string value would be parsed twice), a numeric or a bigint in bigint mode (precision), a
 * bytea or a string-mode date would not: a table with one fails its first list, in the tests.
 */
const READ_FROM_JSON = new Set([
  'PgBigInt53',
  'PgBigSerial53',
  'PgBoolean',
  'PgDoublePrecision',
  'PgInteger',
  'PgJsonb',
  'PgText',
  'PgTimestamp',
  'PgUUID',
]);

/**
 * The rows of a select of every column of `table`, which the database returns as one JSON text, read
 * back into the table's row objects. A page of 5,000 rows is 50,000 and more fields, and the embedded
 * database's client decodes and converts each one by itself: one text and one JSON.parse take half the
 * time (issue 11). Each value then goes through its column's own mapping, as drizzle's would (a
 * timestamp's ISO text becomes a Date); a jsonb value is already what the JSON holds.
 */
export async function selectAsJson<T extends PgTable, K extends string = never>(
  db: Db,
  table: T,
  query: SQL,
  /** Columns the query adds to the table's (a joined id, say): each key's value, as the JSON holds it. */
  extras: Record<K, string> = {} as Record<K, string>,
): Promise<(T['$inferSelect'] & Record<K, unknown>)[]> {
  const rows = await readRowsAsJson(db, getTableColumns(table), query, extras);
  return rows as (T['$inferSelect'] & Record<K, unknown>)[];
}

async function readRowsAsJson(
  db: Db,
  columns: Record<string, AnyPgColumn>,
  query: SQL,
  extras: Record<string, string>,
): Promise<Record<string, unknown>[]> {
  // Per column, once: its key, its name in the JSON, and its mapping (none for jsonb).
  const readers = Object.entries(columns).map(([key, column]) => {
    if (!READ_FROM_JSON.has(column.columnType)) {
      throw new Error(
        `A list cannot read ${column.name} (${column.columnType}) from JSON: see READ_FROM_JSON`,
      );
    }
    return {
      key,
      name: column.name,
      map: is(column, PgJsonb) ? null : (value: unknown) => column.mapFromDriverValue(value),
    };
  });
  const added = Object.entries<string>(extras);
  const names = [...readers.map((reader) => reader.name), ...added.map(([, name]) => name)];
  // One array per column rather than one object per row: the database builds it in about half the time,
  // and JSON.parse reads it without 5,000 keyed objects to collect afterwards (issue 19).
  const arrays = names.map((name) => sql`coalesce(json_agg(page_rows.${sql.identifier(name)}), '[]'::json)`);
  const values = await jsonArrayOf<unknown[]>(
    db,
    // The subquery's order carries into the aggregates: each reads the rows in that order, and the outer
    // query neither joins nor groups, so nothing reorders them (PostgreSQL's documented "usually works" case).
    sql`select json_build_array(${sql.join(arrays, sql`, `)})::text as json from (${query}) page_rows`,
  );
  const count = values[0]?.length ?? 0;
  const items: Record<string, unknown>[] = new Array(count);
  for (let row = 0; row < count; row += 1) {
    const item: Record<string, unknown> = {};
    readers.forEach(({ key, map }, column) => {
      const value = values[column]?.[row];
      item[key] = value === null || value === undefined ? null : map ? map(value) : value;
    });
    added.forEach(([key], extra) => {
      item[key] = values[readers.length + extra]?.[row] ?? null;
    });
    items[row] = item;
  }
  return items;
}

/**
 * The rows of a query whose columns are all aliased to R's keys and hold what JSON carries as it is (ids,
 * counts, integer and real sums, text, booleans), as one array per column: a page of 5,000 services'
 * priced columns, or sums grouped by owner, read without a driver's and drizzle's per-field work. The
 * database builds a few flat arrays faster than 5,000 keyed objects, and JSON.parse reads them faster
 * (issue 19). The arrays align: every aggregate of one select reads the same rows in the same order. That
 * order is the query's own when it is ordered and the outer select neither joins nor groups, as in
 * readRowsAsJson (PostgreSQL's documented "usually works" case, which the tests hold it to).
 */
export async function selectPlainColumns<R extends Record<string, number | string | boolean | null>>(
  db: Db,
  query: SQL,
  keys: readonly (keyof R & string)[],
): Promise<{ [K in keyof R]: R[K][] }> {
  const arrays = keys.map((key) => sql`coalesce(json_agg(plain_rows.${sql.identifier(key)}), '[]'::json)`);
  const columns = await jsonArrayOf<unknown[]>(
    db,
    sql`select json_build_array(${sql.join(arrays, sql`, `)})::text as json from (${query}) plain_rows`,
  );
  return Object.fromEntries(keys.map((key, i) => [key, columns[i] ?? []])) as { [K in keyof R]: R[K][] };
}

/**
 * The values of a query of one column in ascending order, which the database returns as one JSON array
 * text (a page of ids: 5,000 rows in one field instead of 5,000). Only for values JSON carries as they
 * are (numbers, text).
 */
export async function selectAscendingJsonArray<V extends number | string>(db: Db, query: SQL): Promise<V[]> {
  return jsonArrayOf<V>(
    db,
    // Ordered in the aggregate itself: callers read the first and last values as the page's range.
    sql`select coalesce(json_agg(page_values.value order by page_values.value), '[]')::text as json
      from (${query}) page_values(value)`,
  );
}

/** Runs a statement answering one JSON array text in a column named `json`, and parses it. */
async function jsonArrayOf<T>(db: Db, statement: SQL): Promise<T[]> {
  const result = await db.execute(statement);
  const [row] = (result as unknown as { rows: { json: string }[] }).rows;
  return JSON.parse(row?.json ?? '[]') as T[];
}

/**
 * The one list query: the rows of `table` matching `where`, in `orderBy` order, whole or one page
 * of them with the total, counted by the database rather than in memory (lists reach 5000 rows).
 */
export async function selectPage<T extends PgTable>(
  db: Db,
  table: T,
  options: { where: SQL | undefined; orderBy: (AnyPgColumn | SQL)[]; paging: Paging | null },
): Promise<Page<T['$inferSelect']>> {
  const { where, orderBy, paging } = options;
  const query = db
    .select()
    .from(table as PgTable)
    .where(where)
    .orderBy(...orderBy)
    .$dynamic();
  if (!paging) return { items: await selectAsJson(db, table, query.getSQL()) };
  const [items, total] = await Promise.all([
    selectAsJson(
      db,
      table,
      query
        .limit(paging.perPage)
        .offset((paging.page - 1) * paging.perPage)
        .getSQL(),
    ),
    db.$count(table, where),
  ]);
  return { items, paging: { page: paging.page, perPage: paging.perPage, total } };
}
