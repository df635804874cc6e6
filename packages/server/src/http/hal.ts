import type { HalCollection, HalLink } from '@berth/core';

/** HAL helpers (contract §1.4): absolute links, `_embedded` collections, paging. */

type Entries = Record<string, string | null | undefined>;
type Maybe<E extends Entries, K extends keyof E> = null extends E[K]
  ? true
  : undefined extends E[K]
    ? true
    : false;

/** The links of `entries`: a relation given as a string is always there, one that may be null may be absent. */
export type LinksOf<E extends Entries> = {
  [K in keyof E as Maybe<E, K> extends true ? never : K]: HalLink;
} & {
  [K in keyof E as Maybe<E, K> extends true ? K : never]?: HalLink;
};

/** `_links` from relation → href; relations without an href are left out (never `null`). */
export function links<const E extends Entries>(entries: E): LinksOf<E> {
  const result: Record<string, HalLink> = {};
  for (const [rel, href] of Object.entries(entries)) if (href) result[rel] = { href };
  return result as LinksOf<E>;
}

/** Contract §1.8: timestamps in the exact toISOString() layout. */
export function iso(date: Date | string): string;
export function iso(date: Date | string | null | undefined): string | null;
export function iso(date: Date | string | null | undefined): string | null {
  if (!date) return null;
  return (date instanceof Date ? date : new Date(date)).toISOString();
}

export interface Paging {
  page: number;
  perPage: number;
}

const MAX_PAGE = 1_000_000;

/**
 * Reads `page` and `per_page`; `per_page` is honoured up to 5000. Without `page` it is page 1 (contract
 * §1.4, issue 19): no answer holds more than one page, and a longer list says where the next page is.
 */
export function pagingFrom(query: unknown, defaultPerPage = 5000): Paging {
  const q = (query ?? {}) as Record<string, unknown>;
  const perPageRaw = Number.parseInt(String(q.per_page ?? ''), 10);
  const pageRaw = Number.parseInt(String(q.page ?? ''), 10);
  const perPage = Math.min(Math.max(Number.isFinite(perPageRaw) ? perPageRaw : defaultPerPage, 1), 5000);
  // Pages past any real list stay numbers the database can offset by (an empty page, not an error).
  const page = Math.min(Math.max(Number.isFinite(pageRaw) ? pageRaw : 1, 1), MAX_PAGE);
  return { page, perPage };
}

/**
 * A list's address with the options it was asked with (`search`, `no_embed`...): its self link, and so its
 * next and prev links, keep them, so a client that follows `_links.next` reads on in the same list.
 */
export function listHref(base: string, options: Record<string, string | boolean | undefined>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(options)) {
    if (value === true) url.searchParams.set(name, 'true');
    else if (typeof value === 'string' && value !== '') url.searchParams.set(name, value);
  }
  return url.toString();
}

export function collection<const Key extends string, T>(
  key: Key,
  selfHref: string,
  items: T[],
  paging?: { page: number; perPage: number; total: number },
): HalCollection<Key, T> {
  const page = paging ?? { page: 1, perPage: Math.max(items.length, 1), total: items.length };
  const lastPage = Math.max(Math.ceil(page.total / page.perPage), 1);
  const pageHref = (n: number) => {
    const url = new URL(selfHref);
    url.searchParams.set('page', String(n));
    url.searchParams.set('per_page', String(page.perPage));
    return url.toString();
  };
  return {
    _embedded: { [key]: items } as { [K in Key]: T[] },
    _links: links({
      self: selfHref,
      next: page.page < lastPage ? pageHref(page.page + 1) : null,
      prev: page.page > 1 ? pageHref(page.page - 1) : null,
    }),
    current_page: page.page,
    per_page: page.perPage,
    total_count: page.total,
  };
}

/** Slices an in-memory list for a page (used where lists are small by nature). */
export function pageOf<T>(items: T[], paging: Paging | null) {
  if (!paging) return { items, paging: undefined };
  const start = (paging.page - 1) * paging.perPage;
  return {
    items: items.slice(start, start + paging.perPage),
    paging: { page: paging.page, perPage: paging.perPage, total: items.length },
  };
}
