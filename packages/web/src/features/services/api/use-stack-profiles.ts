import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import type { HalResource } from '../../../lib/hal.ts';
import { serviceKeys } from './service-keys.ts';

interface StackProfilesHal extends HalResource {
  allow_c_instance_profile?: boolean;
  allow_m_instance_profile?: boolean;
  allow_r_instance_profile?: boolean;
}

export interface AllowedFamilies {
  m: boolean;
  r: boolean;
  c: boolean;
}

/** contract §4.3 stack: which container profile families the scale form offers (C, M, R). */
export function useStackProfiles(stackId: string | null) {
  return useQuery({
    queryKey: serviceKeys.stackProfiles(stackId ?? ''),
    queryFn: async ({ signal }): Promise<AllowedFamilies> => {
      const stack = await apiRequest<StackProfilesHal>(
        'api',
        `/stacks/${encodeURIComponent(stackId ?? '')}`,
        {
          signal,
        },
      );
      return {
        m: stack.allow_m_instance_profile !== false,
        r: stack.allow_r_instance_profile === true,
        c: stack.allow_c_instance_profile === true,
      };
    },
    enabled: !!stackId,
  });
}
