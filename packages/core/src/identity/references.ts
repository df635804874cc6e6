import { trimEndChar } from '../text/text.ts';

// Contract §1.7 and §1.9: bodies name other resources by their URL (or, from newer clients, a bare id).

/** Api-family ids are 1 to 15 decimal digits (contract §1.7). */
const NUMERIC_ID = /^\d{1,15}$/;

/** The last path segment of a reference, trailing slashes ignored: `…/roles/abc-123/` → `abc-123`. */
export function lastUrlSegment(reference: string): string {
  return trimEndChar(reference, '/').split('/').pop() ?? '';
}

/** The numeric id a reference names (a URL ending in the id, or the bare id), or null when it names none. */
export function numericIdFromReference(reference: string): string | null {
  const id = lastUrlSegment(reference);
  return NUMERIC_ID.test(id) ? id : null;
}
