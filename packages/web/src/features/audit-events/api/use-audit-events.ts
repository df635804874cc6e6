import { type AuditEventCollection, type AuditEventResource, SERVER_PAGE_SIZE_DEFAULT } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { type AuditEventFilters, auditPagePath } from './audit-event-filters.ts';
import { auditEventKeys } from './audit-event-keys.ts';

/** One page of an organization's audit events (issue 41), server-paged newest first like operations. */
export function useAuditEvents(
  organizationId: string | null,
  page: number,
  filters: AuditEventFilters,
  after: string | null,
) {
  const { phase } = useSession();
  const path = organizationId ? auditPagePath(organizationId, page, filters, after) : '';
  return useQuery({
    queryKey: auditEventKeys.list(path),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<AuditEventCollection>('api', path, { signal });
      const events: AuditEventResource[] = embeddedList(list, 'audit_events');
      const next = list._links.next?.href;
      return {
        events,
        totalCount: list.total_count ?? events.length,
        nextAfter: next ? new URL(next, window.location.origin).searchParams.get('after') : null,
        perPage: list.per_page || SERVER_PAGE_SIZE_DEFAULT,
      };
    },
    enabled: phase === 'authenticated' && organizationId !== null,
    placeholderData: (previous) => previous,
  });
}
