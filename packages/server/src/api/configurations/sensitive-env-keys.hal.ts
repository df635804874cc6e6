import type { SensitiveEnvKeysResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { links } from '../../http/hal.ts';
import type { SensitiveEnvKeysView } from './configurations.service.ts';

export function toSensitiveEnvKeysHal(
  view: SensitiveEnvKeysView,
  urls: FamilyUrls,
): SensitiveEnvKeysResource {
  return {
    _type: 'sensitive_env_keys' as const,
    keys: view.keys,
    _links: links({
      self: `${urls.api}/apps/${view.appId}/sensitive_env_keys`,
      app: `${urls.api}/apps/${view.appId}`,
    }),
  };
}
