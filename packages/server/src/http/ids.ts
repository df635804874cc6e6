const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Auth-family ids are UUIDs; anything else cannot name a row, so callers answer 404 without a query. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Api-family ids are decimal digit strings (contract §1.7). */
export function parseNumericId(value: string): number | null {
  if (!/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
