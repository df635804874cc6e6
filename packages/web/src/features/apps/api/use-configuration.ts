import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { ConfigurationHal } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

/** contract §5.7 GET /configurations/:id (needs read scope): the app's current variables. */
export function useConfiguration(appId: string, configurationId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: [...appKeys.configuration(appId), configurationId],
    queryFn: async ({ signal }) => {
      if (!configurationId) return {} as Record<string, string | null>;
      const configuration = await apiRequest<ConfigurationHal>(
        'api',
        `/configurations/${encodeURIComponent(configurationId)}`,
        { signal },
      );
      return configuration.env ?? {};
    },
    enabled,
  });
}
