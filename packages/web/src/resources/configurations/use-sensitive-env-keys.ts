import type { SensitiveEnvKeysResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { configurationKeys } from './configuration-keys.ts';

/** GET /apps/:id/sensitive_env_keys (needs read, issue 41): the names of the app's sensitive variables. */
export function useSensitiveEnvKeys(appId: string, enabled: boolean) {
  return useQuery({
    queryKey: configurationKeys.sensitive(appId),
    queryFn: async ({ signal }): Promise<string[]> =>
      (
        await apiRequest<SensitiveEnvKeysResource>(
          'api',
          `/apps/${encodeURIComponent(appId)}/sensitive_env_keys`,
          { signal },
        )
      ).keys,
    enabled,
  });
}
