import { describe, expect, it } from 'vitest';
import {
  decodePositions,
  encodePositions,
  type ListPosition,
  type MergeSource,
  mergePage,
} from './merge-paged-lists.ts';

/**
 * A server-paged list of times (newest first), `size` a page; a cursor is a row's time, and a page after
 * it starts at the first row older than it, as the server's (time, id) cursors do.
 */
function list(name: string, times: number[], size: number, reads: string[]): MergeSource<string> {
  return {
    start: { after: null },
    timeOf: (row) => Number(row.split(':')[1]),
    cursorOf: (row) => `${row.split(':')[1]}.1`,
    readPage: async (after) => {
      const from = after === null ? 0 : times.findIndex((time) => time < Number(after.split('.')[0]));
      const start = from === -1 ? times.length : from;
      reads.push(`${name}@${start}`);
      const rows = times.slice(start, start + size).map((time) => `${name}:${time}`);
      const last = rows.at(-1);
      return {
        rows,
        nextAfter: start + size < times.length && last ? `${last.split(':')[1]}.1` : null,
      };
    },
  };
}

describe('mergePage', () => {
  it('merges two paged lists newest first, page after page, complete and reading one page at a time', async () => {
    const ops = [100, 90, 80, 70, 60, 50, 40];
    const audit = [95, 94, 93, 92, 10];
    const reads: string[] = [];
    const sources = [list('op', ops, 3, reads), list('au', audit, 3, reads)];
    const seen: string[] = [];
    let start: (ListPosition | null)[] = [{ after: null }, { after: null }];
    for (let i = 0; i < 10 && start.some((position) => position !== null); i++) {
      const page = await mergePage(
        sources.map((source, index) => ({ ...source, start: start[index] ?? null })),
        4,
      );
      expect(page.rows.length).toBeLessThanOrEqual(4);
      seen.push(...page.rows);
      start = page.next;
      // The position survives the query string.
      expect(decodePositions(encodePositions(start), 2)).toEqual(start);
    }
    expect(seen.map((row) => Number(row.split(':')[1]))).toEqual([...ops, ...audit].sort((a, b) => b - a));
    expect(new Set(seen).size).toBe(ops.length + audit.length);
    // No request reads more than a page: each read is one page of one list.
    expect(reads.every((read) => /^(op|au)@\d+$/.test(read))).toBe(true);
  });

  it('neither repeats nor skips a row when rows arrive between two pages', async () => {
    const ops = [100, 90, 80, 70];
    const audit = [95, 85, 75];
    const reads: string[] = [];
    const first = await mergePage([list('op', ops, 3, reads), list('au', audit, 3, reads)], 3);
    expect(first.rows).toEqual(['op:100', 'au:95', 'op:90']);
    // Two newer rows arrive in each list before the next page is asked for.
    ops.unshift(120, 110);
    audit.unshift(130, 125);
    const sources = [list('op', ops, 3, reads), list('au', audit, 3, reads)];
    const second = await mergePage(
      sources.map((source, index) => ({ ...source, start: first.next[index] ?? null })),
      10,
    );
    expect(second.rows).toEqual(['au:85', 'op:80', 'au:75', 'op:70']);
    expect(second.next).toEqual([null, null]);
  });

  it('refuses a malformed position', () => {
    expect(decodePositions('x~1!-', 2)).toBeNull();
    expect(decodePositions('~a!-', 2)).toBeNull();
    expect(decodePositions('1~2.3!-', 2)).toBeNull();
    expect(decodePositions('a'.repeat(500), 1)).toBeNull();
    expect(decodePositions('~1700000000000.42!-', 2)).toEqual([{ after: '1700000000000.42' }, null]);
    expect(decodePositions('~!~', 2)).toEqual([{ after: null }, { after: null }]);
  });
});
