import { parseResourceKey, resourceKey, type SearchResourceType } from '@berth/core';
import { useEffect, useRef } from 'react';
import { matchPath, useLocation } from 'react-router';
import { paths } from '../../lib/paths.ts';
import { type ResourceStats, readPersisted, writePersisted } from '../../lib/persisted-state.ts';

// spec 3 §2: recent resources are tracked by the key "type-id" with a visit count and the last access
// time, in the `resourceStats` key of the browser's storage (spec 1 §3). Only keys are kept: the names
// come from the server when shown, so a page never lists what its user may no longer read.

/** How many resources are remembered: the most recently visited are kept. */
export const REMEMBERED_RESOURCES = 100;

/** The pages of one resource each, with the path parameter that holds its id; a service's first. */
const RESOURCE_PAGES: readonly [string, SearchResourceType, string][] = [
  [paths.serviceDetail, 'service', 'serviceId'],
  [paths.appDetail, 'app', 'id'],
  [paths.databaseDetail, 'database', 'id'],
  [paths.environmentDetail, 'environment', 'id'],
  [paths.endpointDetail, 'endpoint', 'id'],
  [paths.stackDetail, 'stack', 'id'],
  [paths.deploymentDetail, 'deployment', 'id'],
  [paths.sourceDetail, 'source', 'id'],
];

/** The resource a console path shows (its tabs included), or null for any other page. */
export function resourceKeyOfPath(pathname: string): string | null {
  for (const [pattern, type, parameter] of RESOURCE_PAGES) {
    const id = matchPath(pattern, pathname)?.params[parameter];
    // `/sources/setup` matches the source page's pattern: only a real id counts.
    if (id && parseResourceKey(resourceKey(type, id))) return resourceKey(type, id);
  }
  return null;
}

/** One more visit of the resource, now; the oldest entries beyond the limit are forgotten. */
export function recordVisit(key: string, now = new Date()): void {
  const stats = readPersisted('resourceStats');
  const next: ResourceStats = {
    ...stats,
    [key]: { count: (stats[key]?.count ?? 0) + 1, lastAccessed: now.toISOString() },
  };
  const kept = Object.entries(next)
    .sort(([, a], [, b]) => b.lastAccessed.localeCompare(a.lastAccessed))
    .slice(0, REMEMBERED_RESOURCES);
  writePersisted('resourceStats', Object.fromEntries(kept));
}

/** spec 3 §2: the remembered keys by last access (Recently Viewed) or by visit count (Most Visited). */
export function rememberedKeys(stats: ResourceStats, by: 'lastAccessed' | 'count', limit: number): string[] {
  return Object.entries(stats)
    .filter(([key]) => parseResourceKey(key) !== null)
    .sort(
      ([, a], [, b]) =>
        (by === 'count' ? b.count - a.count : 0) || b.lastAccessed.localeCompare(a.lastAccessed),
    )
    .slice(0, limit)
    .map(([key]) => key);
}

/** Counts a visit each time the console comes to a resource's page (moving between its tabs is one visit). */
export function useResourceVisits(): void {
  const { pathname } = useLocation();
  const key = resourceKeyOfPath(pathname);
  const previous = useRef<string | null>(null);
  useEffect(() => {
    if (key && key !== previous.current) recordVisit(key);
    previous.current = key;
  }, [key]);
}
