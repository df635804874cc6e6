import { type OperationCollection, POLL_INTERVAL_MS, SERVER_PAGE_SIZE_DEFAULT } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromOperationResource } from '../../../resources/operations/operation.hal.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';
import { activityPagePath, type OperationFilters } from './operation-filters.ts';

/**
 * One page of a server-paged operation list (contract §5.11), e.g. `/organizations/{id}/operations`.
 * Every operation list is an Activity view, so the server applies the 2-week window (spec 3 §9) with
 * `since` before paging: pages stay full.
 */
export function useOperations(basePath: string | null, page: number, filters: OperationFilters) {
  const { phase } = useSession();
  const path = basePath ? activityPagePath(basePath, page, filters, Date.now()) : '';
  return useQuery({
    queryKey: operationKeys.list(path),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<OperationCollection>('api', path, { signal });
      const operations = embeddedList(list, 'operations').map(fromOperationResource);
      return {
        operations,
        totalCount: list.total_count ?? operations.length,
        // spec 3 §9: server-paged lists hold 40 rows unless the server says otherwise.
        perPage: list.per_page || SERVER_PAGE_SIZE_DEFAULT,
      };
    },
    enabled: phase === 'authenticated' && basePath !== null,
    // spec 3 §4: every 10 s; react-query pauses the interval while the tab is hidden.
    refetchInterval: POLL_INTERVAL_MS.operationList,
    placeholderData: (previous) => previous,
  });
}
