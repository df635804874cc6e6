import { describe, expect, it } from 'vitest';
import { readPersisted, writePersisted } from '../../lib/persisted-state.ts';
import { REMEMBERED_RESOURCES, recordVisit, rememberedKeys, resourceKeyOfPath } from './visits.ts';

describe('the resource a page shows (spec 3 §2: tracked by "type-id")', () => {
  it.each([
    ['/apps/12', 'app-12'],
    ['/apps/12/configuration', 'app-12'],
    ['/apps/12/services/34', 'service-34'],
    ['/apps/12/services/34/metrics', 'service-34'],
    ['/databases/5/backups', 'database-5'],
    ['/environments/7', 'environment-7'],
    ['/endpoints/9', 'endpoint-9'],
    ['/stacks/2/vpn', 'stack-2'],
    ['/deployments/41/logs', 'deployment-41'],
    ['/sources/3', 'source-3'],
    ['/sources/setup', null],
    ['/apps', null],
    ['/apps/not-an-id', null],
    ['/create/app', null],
    ['/search', null],
  ])('%s is %s', (path, key) => {
    expect(resourceKeyOfPath(path)).toBe(key);
  });
});

describe('visits kept in resourceStats', () => {
  it('counts each visit and keeps its last time', () => {
    recordVisit('app-1', new Date('2026-11-01T10:00:00.000Z'));
    recordVisit('app-1', new Date('2026-11-02T10:00:00.000Z'));
    recordVisit('database-2', new Date('2026-11-03T10:00:00.000Z'));
    expect(readPersisted('resourceStats')).toEqual({
      'app-1': { count: 2, lastAccessed: '2026-11-02T10:00:00.000Z' },
      'database-2': { count: 1, lastAccessed: '2026-11-03T10:00:00.000Z' },
    });
  });

  it('forgets the least recently visited beyond the limit', () => {
    const start = Date.parse('2026-01-01T00:00:00.000Z');
    for (let i = 0; i <= REMEMBERED_RESOURCES; i += 1)
      recordVisit(`app-${i + 1}`, new Date(start + i * 1000));
    const stats = readPersisted('resourceStats');
    expect(Object.keys(stats)).toHaveLength(REMEMBERED_RESOURCES);
    expect(stats['app-1']).toBeUndefined();
    expect(stats[`app-${REMEMBERED_RESOURCES + 1}`]).toBeDefined();
  });

  it('orders them by last access (Recently Viewed) or by visits (Most Visited), ignoring stray keys', () => {
    writePersisted('resourceStats', {
      'app-1': { count: 9, lastAccessed: '2026-11-01T00:00:00.000Z' },
      'app-2': { count: 1, lastAccessed: '2026-11-05T00:00:00.000Z' },
      'database-3': { count: 4, lastAccessed: '2026-11-03T00:00:00.000Z' },
      'stack-4': { count: 4, lastAccessed: '2026-11-04T00:00:00.000Z' },
      'junk-key': { count: 99, lastAccessed: '2026-11-09T00:00:00.000Z' },
    });
    const stats = readPersisted('resourceStats');
    expect(rememberedKeys(stats, 'lastAccessed', 3)).toEqual(['app-2', 'stack-4', 'database-3']);
    expect(rememberedKeys(stats, 'count', 3)).toEqual(['app-1', 'stack-4', 'database-3']);
  });
});
