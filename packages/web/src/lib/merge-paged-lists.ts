/**
 * A merge of server-paged lists, each newest first and followed by its own next links (issue 41's
 * Activity "All": operations and audit events in one list). Every request is one page of one list;
 * a merged page reads one or two pages of each, never a whole list.
 *
 * Where a merged page ends inside a list's page, that list's position is the cursor of the last row it
 * showed (the same cursor its next link would carry after that row), so rows that arrive or move up in
 * between are neither shown twice nor skipped.
 */

/** Where a list's next merged page starts: after the row with this cursor (null: the first page). */
export interface ListPosition {
  after: string | null;
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
  /** A row's time in ms since the epoch: the time the list is sorted by (rows are merged newest first). */
  timeOf: (row: T) => number;
  /** The cursor a next link would carry after this row. */
  cursorOf: (row: T) => string;
}

export interface MergedPage<T> {
  rows: T[];
  /** Each list's position after this page (null: read to its end); every one null: no next page. */
  next: (ListPosition | null)[];
}

interface Reader<T> {
  source: MergeSource<T>;
  buffered: T[];
  pageNext: string | null;
  loaded: boolean;
  done: boolean;
  lastShown: T | undefined;
}

/** Loads the reader's next page when its buffer is empty and its list has more; false at the end. */
async function fill<T>(reader: Reader<T>): Promise<boolean> {
  while (reader.buffered.length === 0 && !reader.done) {
    if (reader.loaded && reader.pageNext === null) {
      reader.done = true;
      break;
    }
    const page = await reader.source.readPage(
      reader.loaded ? reader.pageNext : (reader.source.start?.after ?? null),
    );
    reader.buffered = page.rows;
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
    pageNext: null,
    loaded: false,
    done: source.start === null,
    lastShown: undefined,
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
    const row = newest.buffered.shift() as T;
    rows.push(row);
    newest.lastShown = row;
  }
  const next = readers.map((reader): ListPosition | null => {
    const atEnd = reader.done || (reader.loaded && reader.pageNext === null);
    if (atEnd && reader.buffered.length === 0) return null;
    if (reader.lastShown === undefined) return reader.source.start;
    return { after: reader.source.cursorOf(reader.lastShown) };
  });
  return { rows, next };
}

/** A merged page's start in the console's query string, and back (bounded: it comes from outside). */
export function encodePositions(positions: (ListPosition | null)[]): string {
  return positions.map((position) => (position ? `~${position.after ?? ''}` : '-')).join('!');
}

/** A cursor as the server's next links carry them: a time in ms and an id. */
const CURSOR = /^\d{1,15}\.\d{1,15}$/;

export function decodePositions(text: string | null, count: number): (ListPosition | null)[] | null {
  if (!text || text.length > 400) return null;
  const parts = text.split('!');
  if (parts.length !== count) return null;
  const positions: (ListPosition | null)[] = [];
  for (const part of parts) {
    if (part === '-') positions.push(null);
    else if (part === '~') positions.push({ after: null });
    else if (part.startsWith('~') && CURSOR.test(part.slice(1))) positions.push({ after: part.slice(1) });
    else return null;
  }
  return positions;
}
