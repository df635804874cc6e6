/** Whether a query failed on a unique index (PostgreSQL 23505), on PGlite and node-postgres alike. */
export function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return cause?.code === '23505' || (error as { code?: unknown } | null)?.code === '23505';
}
