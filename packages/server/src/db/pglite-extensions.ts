import type { Extensions } from '@electric-sql/pglite';

/**
 * The extensions the migrations create, which PGlite must load at every open of a cluster that has
 * them (PostgreSQL finds its own): pg_trgm since 0033 and btree_gin since 0036, for global search's
 * trigram indexes led by the tenant's environment. Imported when PGlite is, so a server on PostgreSQL
 * loads neither.
 */
export async function pgliteExtensions(): Promise<Extensions> {
  const [{ pg_trgm }, { btree_gin }] = await Promise.all([
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/btree_gin'),
  ]);
  return { pg_trgm, btree_gin };
}
