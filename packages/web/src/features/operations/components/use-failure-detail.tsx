import { type ReactNode, useCallback } from 'react';
import { type FailingResourceType, useLastFailures } from '../api/use-last-failures.ts';
import { FailedOperationNote } from './last-operation-failure.tsx';

/**
 * Issue 41: what a resource list shows under a row whose last operation failed (the reason and a link to
 * the operation), from one organization-wide list of such operations: stable while that list is, so the
 * tables' columns are not rebuilt on every render.
 */
export function useFailureDetail(
  organizationId: string | null,
  resourceType: FailingResourceType,
): (resourceId: string) => ReactNode {
  const failures = useLastFailures(organizationId, resourceType);
  const byResource = failures.data;
  return useCallback(
    (resourceId: string) => {
      const operation = byResource?.get(resourceId);
      return operation ? <FailedOperationNote operation={operation} /> : null;
    },
    [byResource],
  );
}
