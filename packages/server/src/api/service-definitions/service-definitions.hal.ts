import type { ServiceDefinitionResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { serviceDefinitions } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type ServiceDefinitionRow = typeof serviceDefinitions.$inferSelect;

export function toServiceDefinitionHal(
  definition: ServiceDefinitionRow,
  urls: FamilyUrls,
): ServiceDefinitionResource {
  return {
    id: String(definition.id),
    _type: 'service_definition' as const,
    process_type: definition.processType,
    command: definition.command,
    created_at: iso(definition.createdAt),
    updated_at: iso(definition.updatedAt),
    _links: links({
      self: `${urls.api}/service_definitions/${definition.id}`,
      app: `${urls.api}/apps/${definition.appId}`,
    }),
  };
}
