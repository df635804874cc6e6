/** A boolean query flag as the console sends it (`no_embed=true`, `with_deleted=true`). */
export function queryFlag(query: unknown, name: string): boolean {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return value === 'true' || value === '1';
}
