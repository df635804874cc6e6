import { markSensitiveEnvKeysInput, type SensitiveEnvKeysResource } from '@berth/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { configurationKeys } from './configuration-keys.ts';

/** POST /apps/:id/sensitive_env_keys (needs deploy, issue 41): marks variables sensitive, for good. */
export function useMarkSensitiveEnvKeys(appId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (keys: string[]) =>
      (
        await apiRequest<SensitiveEnvKeysResource>(
          'api',
          `/apps/${encodeURIComponent(appId)}/sensitive_env_keys`,
          { method: 'POST', body: markSensitiveEnvKeysInput.parse({ keys }) },
        )
      ).keys,
    // The answer holds the names just marked: the app's whole list is read again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: configurationKeys.sensitive(appId) }),
  });
}
