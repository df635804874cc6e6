import { idFromHref } from '@berth/core';

// Wire shapes of HAL+JSON (contract §1.4). Features turn these into domain objects right after the call.

export interface HalLink {
  href: string;
}

export type HalLinks = Partial<Record<string, HalLink | null>>;

export interface HalResource {
  id: string | number;
  _type: string;
  _links: HalLinks;
}

export interface HalCollection<T> {
  _embedded?: Partial<Record<string, T[] | null>>;
  _links?: HalLinks;
  current_page?: number;
  per_page?: number;
  total_count?: number;
}

/** contract §1.4: a related id is the last segment of the relation's href; absent, null and "" read as none. */
export function linkId(resource: { _links?: HalLinks | null }, rel: string): string | null {
  return idFromHref(resource._links?.[rel]?.href);
}

/** The items of a collection under its fixed key (contract §5), or none. */
export function embeddedList<T>(collection: HalCollection<T>, key: string): T[] {
  return collection._embedded?.[key] ?? [];
}

/** contract §1.7: ids are compared as strings. */
export function idOf(resource: { id: string | number }): string {
  return String(resource.id);
}
