import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { type AppOperationHal, fromAppOperationHal } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

/** contract §5.11 GET /apps/:id/operations?page=N&with_services=true, polled every 10 s (spec 3 §4). */
export function useAppOperations(appId: string, page: number) {
  return useQuery({
    queryKey: appKeys.operationPage(appId, page),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<AppOperationHal>>(
        'api',
        `/apps/${encodeURIComponent(appId)}/operations?page=${page}&with_services=true`,
        { signal },
      );
      return {
        operations: embeddedList(list, 'operations').map(fromAppOperationHal),
        total: list.total_count ?? 0,
        perPage: list.per_page ?? 40,
      };
    },
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}
