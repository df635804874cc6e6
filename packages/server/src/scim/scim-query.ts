import { invalidValue } from './scim-errors.ts';
import { type Filter, parseAttributePath, parseFilter } from './scim-filter.ts';
import { DEFAULT_COUNT, MAX_RESULTS } from './scim-schemas.ts';

// The query parameters of RFC 7644 §3.4.2 and §3.9: filter, startIndex and count, attributes and
// excludedAttributes. sortBy and sortOrder are ignored, as ServiceProviderConfig says (sort unsupported).

type Query = Record<string, unknown>;

/** One parameter's value, or undefined; a parameter given twice is ambiguous, so refused. */
function single(query: Query, name: string): string | undefined {
  const entry = Object.entries(query).find(([key]) => key.toLowerCase() === name.toLowerCase());
  const value = entry?.[1];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidValue(`${name} must be given once`);
  return value;
}

/** Past any page there is: a larger startIndex reads as this one (and still finds nothing). */
const LAST_START_INDEX = 2_147_483_647;

/** An integer of any size (RFC 7644 clamps, it does not refuse, a large one); anything else is 400. */
function integer(query: Query, name: string): number | undefined {
  const value = single(query, name)?.trim();
  if (value === undefined || value === '') return undefined;
  if (value.length > 40 || !/^[-+]?\d+$/.test(value)) throw invalidValue(`${name} must be an integer`);
  return Number(value);
}

export interface ListQuery {
  filter: Filter | null;
  /** 1-based; below 1 reads as 1 (RFC 7644 §3.4.2.4). */
  startIndex: number;
  /** At most MAX_RESULTS; below 0 reads as 0 (only totalResults). */
  count: number;
}

export function listQuery(query: unknown): ListQuery {
  const q = (query ?? {}) as Query;
  const filterText = single(q, 'filter');
  return {
    filter: filterText === undefined || filterText.trim() === '' ? null : parseFilter(filterText),
    startIndex: Math.min(LAST_START_INDEX, Math.max(1, integer(q, 'startIndex') ?? 1)),
    count: Math.min(MAX_RESULTS, Math.max(0, integer(q, 'count') ?? DEFAULT_COUNT)),
  };
}

/** The top-level attributes a list of attribute names means (`name.givenName` keeps `name`). */
function attributeNames(value: string | undefined): Set<string> | null {
  if (value === undefined || value.trim() === '') return null;
  const names = value.split(',').slice(0, 50);
  try {
    return new Set(names.map((name) => parseAttributePath(name.trim()).name));
  } catch {
    throw invalidValue('attributes and excludedAttributes are comma-separated attribute names');
  }
}

/** What `attributes` and `excludedAttributes` ask to be returned (id, schemas and meta always are). */
export interface Projection {
  includes(attribute: string): boolean;
  apply<T extends Record<string, unknown>>(resource: T): Partial<T>;
}

const ALWAYS = new Set(['id', 'schemas', 'meta']);

export function projection(query: unknown): Projection {
  const q = (query ?? {}) as Query;
  const only = attributeNames(single(q, 'attributes'));
  const excluded = attributeNames(single(q, 'excludedAttributes')) ?? new Set<string>();
  const includes = (attribute: string) => {
    const name = attribute.toLowerCase();
    if (ALWAYS.has(name)) return true;
    if (only !== null) return only.has(name);
    return !excluded.has(name);
  };
  return {
    includes,
    apply(resource) {
      return Object.fromEntries(Object.entries(resource).filter(([key]) => includes(key))) as Partial<
        typeof resource
      >;
    },
  };
}
