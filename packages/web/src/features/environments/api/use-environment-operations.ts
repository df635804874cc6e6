import { SERVER_PAGE_SIZE_DEFAULT } from '@berth/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { environmentKeys } from './environment-keys.ts';
import { type EnvironmentOperationHal, fromEnvironmentOperationHal } from './environment-resources.hal.ts';

/** spec 3 §4: operation lists poll every 10 s (TanStack Query pauses while the tab is hidden). */
export const OPERATIONS_POLL_MS = 10_000;

/** contract §5.11 GET /accounts/:id/operations?page=N: newest first, server-paged. */
export function useEnvironmentOperations(id: string, page: number) {
  const { phase } = useSession();
  return useQuery({
    queryKey: environmentKeys.operations(id, page),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<EnvironmentOperationHal>>(
        'api',
        `/accounts/${encodeURIComponent(id)}/operations?page=${page}`,
        { signal },
      );
      const perPage = list.per_page ?? SERVER_PAGE_SIZE_DEFAULT;
      return {
        operations: embeddedList(list, 'operations').map(fromEnvironmentOperationHal),
        pageCount: Math.max(1, Math.ceil((list.total_count ?? 0) / perPage)),
      };
    },
    enabled: phase === 'authenticated' && id !== '',
    refetchInterval: OPERATIONS_POLL_MS,
    placeholderData: keepPreviousData,
  });
}
