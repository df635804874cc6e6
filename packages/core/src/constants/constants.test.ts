import { describe, expect, it } from 'vitest';
import { containerProfile, DEFAULT_CONTAINER_MEMORY_MB } from '../containers/profiles.ts';
import {
  CACHED_LIST_STALE_MS,
  CONTAINER_SIZES_GB,
  DEFAULT_TABLE_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MAX_PAGES,
  POLL_INTERVAL_MS,
  SERVER_PAGE_SIZE_DEFAULT,
  TABLE_PAGE_SIZE_OPTIONS,
} from './constants.ts';

describe('paging constants (spec 1 §9, spec 2 §9, contract §1.4)', () => {
  it.each([
    ['full lists ask for 5000 per page', MAX_PAGE_SIZE, 5000],
    ['auto-paged lists read at most 50 pages', MAX_PAGES, 50],
    ['tables show 25 rows unless asked otherwise', DEFAULT_TABLE_PAGE_SIZE, 25],
    ['server-paged lists hold 40 rows unless the server says otherwise', SERVER_PAGE_SIZE_DEFAULT, 40],
  ])('%s', (_rule, value, expected) => {
    expect(value).toBe(expected);
  });
});

describe('table page sizes (spec 3 §2)', () => {
  it('offer the default first and a whole full list last', () => {
    expect(TABLE_PAGE_SIZE_OPTIONS).toEqual([25, 50, 100, 500, 5000]);
  });
});

describe('polling (contract §1.13)', () => {
  it.each([
    ['operation lists every 10 s', POLL_INTERVAL_MS.operationList, 10_000],
    ['an endpoint every 5 s', POLL_INTERVAL_MS.endpoint, 5_000],
    ['a certificate every 5 s', POLL_INTERVAL_MS.certificate, 5_000],
    ['one operation every 3 s while waiting', POLL_INTERVAL_MS.operation, 3_000],
    ['cached lists refetched after 60 s when revisited', CACHED_LIST_STALE_MS, 60_000],
  ])('%s', (_rule, value, expected) => {
    expect(value).toBe(expected);
  });
});

describe('container sizes (spec 2 §9)', () => {
  it('start at the default size, grow strictly and end at the largest memory-optimized container', () => {
    expect(CONTAINER_SIZES_GB[0] * 1024).toBe(DEFAULT_CONTAINER_MEMORY_MB);
    for (const [index, size] of CONTAINER_SIZES_GB.entries()) {
      if (index > 0) expect(size).toBeGreaterThan(CONTAINER_SIZES_GB[index - 1] ?? 0);
    }
    expect((CONTAINER_SIZES_GB.at(-1) ?? 0) * 1024).toBe(containerProfile('r5')?.maximumMb);
  });
});
