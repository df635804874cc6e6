import type { SecuritySummaryResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { securityKeys } from './security-keys.ts';

/**
 * Issue 38: what Berth knows of an environment's security (GET /accounts/:id/security_summary). Read
 * again on each visit: a member may have turned 2FA on since.
 */
export function useSecuritySummary(environmentId: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: securityKeys.summary(environmentId),
    queryFn: ({ signal }) =>
      apiRequest<SecuritySummaryResource>(
        'api',
        `/accounts/${encodeURIComponent(environmentId)}/security_summary`,
        { signal },
      ),
    enabled: phase === 'authenticated' && environmentId !== '',
    staleTime: 0,
  });
}
