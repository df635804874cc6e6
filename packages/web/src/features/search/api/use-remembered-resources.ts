import { RECENT_RESOURCES_SHOWN, SEARCH_RESOURCE_KEYS_MAX } from '@berth/core';
import { usePersistedState } from '../../../lib/persisted-state.ts';
import type { SearchResult } from '../../../resources/search/search-result.hal.ts';
import { rememberedKeys } from '../visits.ts';
import { useNamedResources } from './use-named-resources.ts';

/**
 * spec 3 §2: Recently Viewed and Most Visited, 5 each, from the remembered visits. More keys than shown
 * are asked for (half the request's limit each), so a deleted resource leaves its place to the next.
 */
export function useRememberedResources() {
  const [stats] = usePersistedState('resourceStats');
  const candidates = SEARCH_RESOURCE_KEYS_MAX / 2;
  const recent = rememberedKeys(stats, 'lastAccessed', candidates);
  const visited = rememberedKeys(stats, 'count', candidates);
  const named = useNamedResources([...new Set([...recent, ...visited])]);
  const byKey = new Map((named.data ?? []).map((result) => [result.key, result]));
  const pick = (keys: string[]): SearchResult[] =>
    keys.flatMap((key) => byKey.get(key) ?? []).slice(0, RECENT_RESOURCES_SHOWN);
  return {
    isPending: recent.length > 0 && named.isPending,
    error: named.error,
    recentlyViewed: pick(recent),
    mostVisited: pick(visited),
  };
}
