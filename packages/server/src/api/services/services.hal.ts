import type { ServiceResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { services } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type ServiceRow = typeof services.$inferSelect;

/** Contract §4.3 service: links to exactly one of its app or its database. */
export function toServiceHal(service: ServiceRow, urls: FamilyUrls): ServiceResource {
  return {
    id: String(service.id),
    _type: 'service' as const,
    handle: service.handle,
    process_type: service.processType,
    command: service.command,
    docker_repo: service.dockerRepo,
    docker_ref: service.dockerRef,
    container_count: service.containerCount,
    container_memory_limit_mb: service.containerMemoryLimitMb,
    instance_class: service.instanceClass,
    force_zero_downtime: service.forceZeroDowntime,
    naive_health_check: service.naiveHealthCheck,
    stop_timeout: service.stopTimeout,
    created_at: iso(service.createdAt),
    updated_at: iso(service.updatedAt),
    _links: links({
      self: `${urls.api}/services/${service.id}`,
      account: `${urls.api}/accounts/${service.environmentId}`,
      app: service.appId ? `${urls.api}/apps/${service.appId}` : null,
      database: !service.appId && service.databaseId ? `${urls.api}/databases/${service.databaseId}` : null,
      current_release: service.currentReleaseId ? `${urls.api}/releases/${service.currentReleaseId}` : null,
      service_sizing_policy: service.sizingPolicyId
        ? `${urls.api}/services/${service.id}/service_sizing_policies`
        : null,
      releases: `${urls.api}/services/${service.id}/releases`,
      operations: `${urls.api}/services/${service.id}/operations`,
    }),
  };
}
