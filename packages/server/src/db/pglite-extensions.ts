import type { Extensions } from '@electric-sql/pglite';

/**
 * The extensions the migrations create, which PGlite must load at every open of a cluster that has
 * them (PostgreSQL finds its own): pg_trgm since 0033, for global search's trigram indexes. Imported
 * when PGlite is, so a server on PostgreSQL loads neither.
 */
export async function pgliteExtensions(): Promise<Extensions> {
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return { pg_trgm };
}
