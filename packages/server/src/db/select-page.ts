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
 * The rows of a select of every column of `table`, which the database returns as one JSON text, read
 * back into the table's row objects. A page of 5,000 rows is 50,000 and more fields, and the embedded
 * database's client decodes and converts each one by itself: one text and one JSON.parse take half the
 * time (issue 11). Each value then goes through its column's own mapping, as drizzle's would (a
 * timestamp's ISO text becomes a Date); a jsonb value is already what the JSON holds.
 */
async function selectAsJson<T extends PgTable>(db: Db, table: T, query: SQL): Promise<T['$inferSelect'][]> {
  const result = await db.execute(
    // The subquery's order carries into the aggregate: it is read in that order and nothing reorders it.
    sql`select coalesce(json_agg(page_rows), '[]')::text as rows from (${query}) page_rows`,
  );
  const [row] = (result as unknown as { rows: { rows: string }[] }).rows;
  const columns = Object.entries(getTableColumns(table));
  return (JSON.parse(row?.rows ?? '[]') as Record<string, unknown>[]).map((raw) => {
    const item: Record<string, unknown> = {};
    for (const [key, column] of columns) {
      const value = raw[column.name];
      item[key] =
        value === null || value === undefined
          ? null
          : is(column, PgJsonb)
            ? value
            : column.mapFromDriverValue(value);
    }
    return item as T['$inferSelect'];
  });
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
