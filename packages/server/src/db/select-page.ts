import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Paging } from '../http/hal.ts';
import type { Db } from './client.ts';

export interface Page<T> {
  items: T[];
  /** Set when the caller asked for a page (contract §1.4); absent → the whole collection. */
  paging?: { page: number; perPage: number; total: number };
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
  if (!paging) return { items: (await query) as T['$inferSelect'][] };
  const [items, total] = await Promise.all([
    query.limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.$count(table, where),
  ]);
  return {
    items: items as T['$inferSelect'][],
    paging: { page: paging.page, perPage: paging.perPage, total },
  };
}
