import type { ConfigurationResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { configurations } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type ConfigurationRow = typeof configurations.$inferSelect;

export function toConfigurationHal(configuration: ConfigurationRow, urls: FamilyUrls): ConfigurationResource {
  return {
    id: String(configuration.id),
    _type: 'configuration' as const,
    env: configuration.env,
    created_at: iso(configuration.createdAt),
    updated_at: iso(configuration.updatedAt),
    _links: links({
      self: `${urls.api}/configurations/${configuration.id}`,
      resource: `${urls.api}/apps/${configuration.appId}`,
    }),
  };
}
