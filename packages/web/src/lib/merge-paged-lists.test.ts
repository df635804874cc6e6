import { describe, expect, it } from 'vitest';
import {
  decodePositions,
  encodePositions,
  type ListPosition,
  type MergeSource,
  mergePage,
} from './merge-paged-lists.ts';

/** A server-paged list of times (newest first), `size` a page, cursors as the index of a page's start. */
function list(name: string, times: number[], size: number, reads: string[]): MergeSource<string> {
  return {
    start: { after: null, skip: 0 },
    timeOf: (row) => Number(row.split(':')[1]),
    readPage: async (after) => {
      const from = after === null ? 0 : Number(after);
      reads.push(`${name}@${from}`);
      const rows = times.slice(from, from + size).map((time) => `${name}:${time}`);
      return { rows, nextAfter: from + size < times.length ? String(from + size) : null };
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
    let start: (ListPosition | null)[] = [
      { after: null, skip: 0 },
      { after: null, skip: 0 },
    ];
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

  it('refuses a malformed position', () => {
    expect(decodePositions('x~1!-', 2)).toBeNull();
    expect(decodePositions('1~a', 2)).toBeNull();
    expect(decodePositions('a'.repeat(500), 1)).toBeNull();
    expect(decodePositions('2~abc!-', 2)).toEqual([{ after: 'abc', skip: 2 }, null]);
  });
});
