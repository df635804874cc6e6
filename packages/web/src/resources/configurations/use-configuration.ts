import type { ConfigurationResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { type Configuration, fromConfigurationResource } from './configuration.hal.ts';
import { configurationKeys } from './configuration-keys.ts';

/**
 * contract §5.7 GET /configurations/:id (needs read scope): the variables of an app now or at a
 * deployment. No configuration (an app never configured) reads as no variables, without a request.
 */
export function useConfiguration(configurationId: string | null, enabled: boolean) {
  return useQuery({
    queryKey: configurationKeys.detail(configurationId ?? ''),
    queryFn: async ({ signal }): Promise<Configuration['env']> => {
      if (!configurationId) return {};
      const configuration = await apiRequest<ConfigurationResource>(
        'api',
        `/configurations/${encodeURIComponent(configurationId)}`,
        { signal },
      );
      return fromConfigurationResource(configuration).env;
    },
    enabled,
  });
}
