/** A boolean query flag as the console sends it (`no_embed=true`, `with_deleted=true`). */
export function queryFlag(query: unknown, name: string): boolean {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return value === 'true' || value === '1';
}

/** A text query parameter, trimmed; absent or blank is undefined (the router bounds its length). */
export function queryText(query: unknown, name: string): string | undefined {
  const value = (query as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
