import { describe, expect, it } from 'vitest';
import { databaseSelectorProblems, parseDatabasesParam } from './database-selectors.ts';

const images = [
  { id: '1', type: 'postgresql', version: '14', visible: true },
  { id: '2', type: 'redis', version: '3.0', visible: true },
  { id: '3', type: 'mysql', version: '8', visible: false },
];

describe('the dbs prefill (spec 2 §2)', () => {
  it('reads comma-separated env:type:version entries into selectors', () => {
    expect(parseDatabasesParam('DATABASE_URL:postgresql:14, REDIS_URL:redis:3.0', images)).toEqual([
      { envVar: 'DATABASE_URL', imageId: '1' },
      { envVar: 'REDIS_URL', imageId: '2' },
    ]);
  });

  it('leaves an unknown or hidden image unpicked, and skips blank entries', () => {
    expect(parseDatabasesParam('A:postgresql:99,,B:mysql:8,C', images)).toEqual([
      { envVar: 'A', imageId: '' },
      { envVar: 'B', imageId: '' },
      { envVar: 'C', imageId: '' },
    ]);
    expect(parseDatabasesParam(null, images)).toEqual([]);
    expect(parseDatabasesParam('', images)).toEqual([]);
  });
});

describe('database selector rules (spec 2 §5)', () => {
  it('asks for an image and a unique env var', () => {
    expect(
      databaseSelectorProblems([
        { envVar: 'DATABASE_URL', imageId: '1' },
        { envVar: 'DATABASE_URL', imageId: '2' },
        { envVar: 'REDIS_URL', imageId: '' },
        { envVar: 'CACHE_URL', imageId: '2' },
      ]),
    ).toEqual([
      null,
      'DATABASE_URL has already been used, each database env var must be unique',
      'Must pick a database or delete the selector from the menu',
      null,
    ]);
  });
});
