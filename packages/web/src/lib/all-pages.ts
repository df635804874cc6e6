import { MAX_PAGES } from '@berth/core';
import { apiRequest, type ServiceFamily } from './api-client.ts';
import { embeddedList } from './hal.ts';

type Page = {
  per_page?: number;
  total_count?: number;
  _embedded?: Partial<Record<string, unknown[] | null>>;
};

/**
 * Every item of a paged list (contract §1.4): page 1, then, once its total is known, the other pages in
 * parallel. `path(page)` is the list's address for a page.
 */
export async function allPages<T>(
  family: ServiceFamily,
  path: (page: number) => string,
  key: string,
  signal?: AbortSignal,
): Promise<T[]> {
  const first = await apiRequest<Page>(family, path(1), { signal });
  const perPage = first.per_page || 0;
  const pages = perPage > 0 ? Math.min(MAX_PAGES, Math.ceil((first.total_count ?? 0) / perPage)) : 1;
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, index) =>
      apiRequest<Page>(family, path(index + 2), { signal }),
    ),
  );
  return [first, ...rest].flatMap((list) => embeddedList(list, key)) as T[];
}
