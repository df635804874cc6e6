import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ConfigurationHal } from './deployment.hal.ts';
import { deploymentKeys } from './deployment-keys.ts';

/** contract §5.7 GET /configurations/:id: the variables at a deployment (needs read scope). */
export function useDeploymentConfiguration(configurationId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: deploymentKeys.configuration(configurationId ?? ''),
    queryFn: async ({ signal }) => {
      const configuration = await apiRequest<ConfigurationHal>(
        'api',
        `/configurations/${encodeURIComponent(configurationId ?? '')}`,
        { signal },
      );
      return configuration.env ?? {};
    },
    enabled: enabled && !!configurationId,
  });
}
