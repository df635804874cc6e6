import { describe, expect, it } from 'vitest';
import { MAX_PAGE_SIZE, MAX_PAGES } from './constants.ts';

describe('paging constants (spec 1 §9, spec 2 §9, contract §1.4)', () => {
  it.each([
    ['full lists ask for 5000 per page', MAX_PAGE_SIZE, 5000],
    ['auto-paged lists read at most 50 pages', MAX_PAGES, 50],
  ])('%s', (_rule, value, expected) => {
    expect(value).toBe(expected);
  });
});
