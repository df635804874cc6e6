import type { OperationResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { itemsByNextLink } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromOperationResource, type Operation } from '../../../resources/operations/operation.hal.ts';
import { operationKeys } from '../../../resources/operations/operation-keys.ts';

/** The resources whose lists say why their last operation failed (issue 41). */
export type FailingResourceType = 'app' | 'database' | 'vhost';

/** Failed operations are few: a page holds many of them, so the whole list is one call most often. */
const FAILURES_PER_PAGE = 100;

/**
 * The organization's operations that are the newest on their resource and failed, for one resource type:
 * a Berth addition to the operation list (`newest_per_resource`, with each one's `failure_reason`).
 * No activity window: a resource that failed a month ago and was not touched since still failed.
 */
export function lastFailuresPath(organizationId: string, resourceType: FailingResourceType): string {
  const query = new URLSearchParams({
    resource_type: resourceType,
    operation_status: 'failed',
    newest_per_resource: 'true',
    per_page: String(FAILURES_PER_PAGE),
  });
  return `/organizations/${encodeURIComponent(organizationId)}/operations?${query}`;
}

/**
 * Issue 41: which resources of a list failed on their last operation, by resource id, with the reason and
 * the operation. One list for the whole organization, followed by its next links (complete), instead of
 * a call per row: the resource lists are fetched bare (no_embed) and endpoints have no last operation.
 * Resources in environments whose operations the caller may not read are simply absent.
 */
export function useLastFailures(organizationId: string | null, resourceType: FailingResourceType) {
  const { phase } = useSession();
  const path = organizationId ? lastFailuresPath(organizationId, resourceType) : '';
  return useQuery({
    queryKey: operationKeys.list(path),
    queryFn: async ({ signal }): Promise<Map<string, Operation>> => {
      const items = await itemsByNextLink<OperationResource>('api', path, 'operations', signal);
      return new Map(items.map((item) => [item.resource_id, fromOperationResource(item)]));
    },
    enabled: phase === 'authenticated' && organizationId !== null,
  });
}
