// spec 3 §2 "Global search" and §9: the rules the search endpoint and the console share.

/** spec 3 §9: global search shows at most 15 results. */
export const GLOBAL_SEARCH_MAX_RESULTS = 15;
/** spec 3 §2, §9: an empty search shows Recently Viewed and Most Visited, 5 entries each. */
export const RECENT_RESOURCES_SHOWN = 5;
/**
 * The longest search text: above the longest handle, hostname, git ref or image name a user would type
 * (a handle is at most 64 characters, a hostname 253), checked before the text is used for anything.
 */
export const SEARCH_QUERY_MAX_LENGTH = 256;
/** How many remembered resources one request may ask to be named (Recently Viewed and Most Visited). */
export const SEARCH_RESOURCE_KEYS_MAX = 30;

/** spec 3 §2 "Placeholder texts" of global search, word for word. */
export const searchMessages = {
  noResults: 'No results found for this search query.',
  noDeployments: 'No deployments found',
} as const;

/** What global search finds (issue 38): every resource the caller may read. */
export const SEARCH_RESOURCE_TYPES = [
  'stack',
  'environment',
  'app',
  'database',
  'endpoint',
  'service',
  'source',
  'deployment',
] as const;
export type SearchResourceType = (typeof SEARCH_RESOURCE_TYPES)[number];

export interface ResourceKey {
  type: SearchResourceType;
  id: string;
}

/** spec 3 §2: recent resources are tracked by the key "type-id" (`app-42`). */
export function resourceKey(type: SearchResourceType, id: string): string {
  return `${type}-${id}`;
}

// Ids are bigserial numbers; 15 digits keeps them exact as JavaScript numbers.
const KEY_PATTERN = /^([a-z]{1,20})-([1-9][0-9]{0,14})$/;

/** The type and id of a "type-id" key, or null for anything else. */
export function parseResourceKey(key: string): ResourceKey | null {
  // Bounded before the pattern: the longest type, a dash and the longest id.
  if (key.length > 36) return null;
  const match = KEY_PATTERN.exec(key);
  const type = SEARCH_RESOURCE_TYPES.find((known) => known === match?.[1]);
  return type && match?.[2] ? { type, id: match[2] } : null;
}
