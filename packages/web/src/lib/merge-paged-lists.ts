/**
 * A merge of server-paged lists, each newest first and followed by its own next links (issue 41's
 * Activity "All": operations and audit events in one list). Every request is one page of one list;
 * a merged page reads one or two pages of each, never a whole list.
 *
 * Where a merged page ends inside a list's page, that list's position is the cursor of the page it
 * came from plus how many of its rows were shown: the next merged page reads that page again and skips
 * them, so the server's cursors stay opaque here.
 */

/** Where a list's next merged page starts: its page's cursor (null: the first page) and rows shown. */
export interface ListPosition {
  after: string | null;
  skip: number;
}

/** A page of one list as its reader answers: rows newest first, the next page's cursor or null. */
export interface ListPage<T> {
  rows: T[];
  nextAfter: string | null;
}

export interface MergeSource<T> {
  /** Where this list starts; null when it has nothing more (it was read to its end). */
  start: ListPosition | null;
  readPage: (after: string | null) => Promise<ListPage<T>>;
  /** A row's time in ms since the epoch (rows are merged newest first). */
  timeOf: (row: T) => number;
}

export interface MergedPage<T> {
  rows: T[];
  /** Each list's position after this page (null: read to its end); every one null: no next page. */
  next: (ListPosition | null)[];
}

interface Reader<T> {
  source: MergeSource<T>;
  buffered: T[];
  /** The cursor of the page the buffer came from, and how many of its rows were taken. */
  pageAfter: string | null;
  taken: number;
  pageNext: string | null;
  loaded: boolean;
  done: boolean;
}

/** Loads the reader's next page when its buffer is empty and its list has more; false at the end. */
async function fill<T>(reader: Reader<T>): Promise<boolean> {
  while (reader.buffered.length === 0 && !reader.done) {
    if (reader.loaded && reader.pageNext === null) {
      reader.done = true;
      break;
    }
    const after = reader.loaded ? reader.pageNext : reader.pageAfter;
    const skip = reader.loaded ? 0 : reader.taken;
    const page = await reader.source.readPage(after);
    reader.pageAfter = after;
    reader.taken = Math.min(skip, page.rows.length);
    reader.buffered = page.rows.slice(reader.taken);
    reader.pageNext = page.nextAfter;
    reader.loaded = true;
    if (page.rows.length === 0) reader.done = true;
  }
  return reader.buffered.length > 0;
}

/** Up to `size` rows of the lists merged newest first (ties keep the sources' order). */
export async function mergePage<T>(sources: MergeSource<T>[], size: number): Promise<MergedPage<T>> {
  const readers: Reader<T>[] = sources.map((source) => ({
    source,
    buffered: [],
    pageAfter: source.start?.after ?? null,
    taken: source.start?.skip ?? 0,
    pageNext: null,
    loaded: false,
    done: source.start === null,
  }));
  const rows: T[] = [];
  while (rows.length < size) {
    // Every list with more must show its next row before the newest can be chosen.
    await Promise.all(readers.map(fill));
    let newest: Reader<T> | null = null;
    for (const reader of readers) {
      const head = reader.buffered[0];
      if (head === undefined) continue;
      const best = newest?.buffered[0];
      if (best === undefined || reader.source.timeOf(head) > reader.source.timeOf(best)) newest = reader;
    }
    if (!newest) break;
    rows.push(newest.buffered.shift() as T);
    newest.taken += 1;
  }
  const next = readers.map((reader): ListPosition | null => {
    if (reader.done && reader.buffered.length === 0) return null;
    if (!reader.loaded) return { after: reader.pageAfter, skip: reader.taken };
    if (reader.buffered.length === 0)
      return reader.pageNext === null ? null : { after: reader.pageNext, skip: 0 };
    return { after: reader.pageAfter, skip: reader.taken };
  });
  return { rows, next };
}

/** A merged page's start in the console's query string, and back (bounded: it comes from outside). */
export function encodePositions(positions: (ListPosition | null)[]): string {
  return positions.map((position) => (position ? `${position.skip}~${position.after ?? ''}` : '-')).join('!');
}

export function decodePositions(text: string | null, count: number): (ListPosition | null)[] | null {
  if (!text || text.length > 400) return null;
  const parts = text.split('!');
  if (parts.length !== count) return null;
  const positions: (ListPosition | null)[] = [];
  for (const part of parts) {
    if (part === '-') {
      positions.push(null);
      continue;
    }
    const mark = part.indexOf('~');
    const skip = Number(part.slice(0, mark));
    if (mark < 1 || !Number.isInteger(skip) || skip < 0 || skip > 1000) return null;
    const after = part.slice(mark + 1);
    positions.push({ after: after === '' ? null : after, skip });
  }
  return positions;
}
