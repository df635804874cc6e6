import {
  isOperationFinished,
  type OperationCollection,
  POLL_INTERVAL_MS,
  SERVER_PAGE_SIZE_DEFAULT,
} from '@berth/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromOperationResource, type Operation } from '../../../resources/operations/operation.hal.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { activityPagePath, type OperationFilters } from './operation-filters.ts';

/**
 * One page of a server-paged operation list (contract §5.11), e.g. `/organizations/{id}/operations`.
 * Every operation list is an Activity view, so the server applies the 2-week window (spec 3 §9) with
 * `since` before paging: pages stay full.
 */
export function useOperations(
  basePath: string | null,
  page: number,
  filters: OperationFilters,
  /** The cursor of the page before's next link: the server starts this page there, on its index. */
  after: string | null = null,
) {
  const { phase } = useSession();
  const path = basePath ? activityPagePath(basePath, page, filters, Date.now(), after) : '';
  const query = useQuery({
    queryKey: operationKeys.list(path),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<OperationCollection>('api', path, { signal });
      const operations = embeddedList(list, 'operations').map(fromOperationResource);
      const next = list._links.next?.href;
      return {
        operations,
        totalCount: list.total_count ?? operations.length,
        /** Past the server's counting cap the total is a lower bound (issue 19). */
        totalEstimated: list.total_count_estimated === true,
        /** Where the next page starts, when there is one. */
        nextAfter: next ? new URL(next, window.location.origin).searchParams.get('after') : null,
        // spec 3 §9: server-paged lists hold 40 rows unless the server says otherwise.
        perPage: list.per_page || SERVER_PAGE_SIZE_DEFAULT,
      };
    },
    enabled: phase === 'authenticated' && basePath !== null,
    // spec 3 §4: every 10 s; react-query pauses the interval while the tab is hidden.
    refetchInterval: POLL_INTERVAL_MS.operationList,
    placeholderData: (previous) => previous,
  });
  useRefreshOnEnded(path, query.data?.operations);
  return query;
}

/** What an operation's end may change: the resources every page shows (not their operation lists). */
const CHANGED_BY_OPERATIONS = new Set([
  'apps',
  'services',
  'databases',
  'deployments',
  'costs',
  'endpoints',
  'environments',
  'backups',
  'releases',
  'configurations',
]);

/**
 * Issue 20, pages that stay true: when a polled list shows an operation ended since the last look (a
 * teammate's deploy), every resource query on screen is read again, so a page's header agrees with the
 * list below it.
 */
function useRefreshOnEnded(path: string, operations: readonly Operation[] | undefined) {
  const queryClient = useQueryClient();
  const seen = useRef<{ path: string; statuses: Map<string, string> } | null>(null);
  useEffect(() => {
    if (!operations) return;
    // Another page or filter is another list: nothing ended because of it.
    const before = seen.current?.path === path ? seen.current.statuses : null;
    seen.current = {
      path,
      statuses: new Map(operations.map((operation) => [operation.id, operation.status])),
    };
    if (!before) return;
    const ended = operations.some(
      (operation) => isOperationFinished(operation.status) && before.get(operation.id) !== operation.status,
    );
    if (ended) {
      void queryClient.invalidateQueries({
        predicate: (query) => CHANGED_BY_OPERATIONS.has(String(query.queryKey[0])),
        refetchType: 'active',
      });
    }
  }, [path, operations, queryClient]);
}
