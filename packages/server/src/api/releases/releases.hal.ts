import type { ContainerResource, ReleaseResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { containers, releases } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type ReleaseRow = typeof releases.$inferSelect;
export type ContainerRow = typeof containers.$inferSelect;

export function toReleaseHal(release: ReleaseRow, urls: FamilyUrls): ReleaseResource {
  return {
    id: String(release.id),
    _type: 'release' as const,
    docker_repo: release.dockerRepo,
    docker_ref: release.dockerRef,
    created_at: iso(release.createdAt),
    updated_at: iso(release.updatedAt),
    _links: links({
      self: `${urls.api}/releases/${release.id}`,
      service: `${urls.api}/services/${release.serviceId}`,
      containers: `${urls.api}/releases/${release.id}/containers`,
    }),
  };
}

/** Contract §4.3 container: `updated_at` of a stopped one tells the metrics whether it is inside the horizon. */
export function toContainerHal(container: ContainerRow, urls: FamilyUrls): ContainerResource {
  return {
    id: String(container.id),
    _type: 'container' as const,
    docker_name: container.dockerName,
    host: container.host,
    aws_instance_id: container.awsInstanceId,
    instance_class: container.instanceClass,
    status: container.status,
    layer: container.layer,
    memory_limit: container.memoryLimit,
    port: container.port,
    port_mapping: container.portMapping,
    created_at: iso(container.createdAt),
    updated_at: iso(container.updatedAt),
    _links: links({
      release: `${urls.api}/releases/${container.releaseId}`,
    }),
  };
}
