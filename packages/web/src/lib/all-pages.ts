import { MAX_PAGES } from '@berth/core';
import { apiRequest, type ServiceFamily } from './api-client.ts';
import { embeddedList, type HalCollection, type HalLinks } from './hal.ts';

type Page = {
  per_page?: number;
  total_count?: number;
  _embedded?: Partial<Record<string, unknown[] | null>>;
};

/** A list's address for page `page` (> 1): its first page's address with `page=N`. */
export function pagePath(first: string, page: number): string {
  return `${first}${first.includes('?') ? '&' : '?'}page=${page}`;
}

/**
 * Every item of a paged list (contract §1.4, issue 19: a list the console shows is complete): the
 * first page at `first` (the start-up address, so an early answer serves it), then, once its total is
 * known, the other pages in parallel, at most MAX_PAGES.
 */
export async function allPages<T>(
  family: ServiceFamily,
  first: string,
  key: string,
  signal?: AbortSignal,
): Promise<T[]> {
  const head = await apiRequest<Page>(family, first, { signal });
  const perPage = head.per_page || 0;
  const pages = perPage > 0 ? Math.min(MAX_PAGES, Math.ceil((head.total_count ?? 0) / perPage)) : 1;
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, index) =>
      apiRequest<Page>(family, pagePath(first, index + 2), { signal }),
    ),
  );
  return [head, ...rest].flatMap((list) => embeddedList(list, key)) as T[];
}

/**
 * Every page of a list that says where its next page is (contract §1.4: "A console that must show a whole
 * list follows `_links.next`"): the first at `first`, then each `next` in turn, at most MAX_PAGES.
 */
export async function pagesByNextLink<P extends { _links?: HalLinks | null }>(
  family: ServiceFamily,
  first: string,
  signal?: AbortSignal,
): Promise<P[]> {
  const pages = [await apiRequest<P>(family, first, { signal })];
  for (
    let next = pages[0]?._links?.next?.href;
    next && pages.length < MAX_PAGES;
    next = pages[pages.length - 1]?._links?.next?.href
  ) {
    pages.push(await apiRequest<P>(family, next, { signal }));
  }
  return pages;
}

/** Every item of a list under its key `key`, its pages read by following `_links.next` (pagesByNextLink). */
export async function itemsByNextLink<T>(
  family: ServiceFamily,
  first: string,
  key: string,
  signal?: AbortSignal,
): Promise<T[]> {
  const pages = await pagesByNextLink<HalCollection<T>>(family, first, signal);
  return pages.flatMap((page) => embeddedList(page, key));
}
