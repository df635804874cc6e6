import type { ContainerResource, MetricContainer, MetricRelease, ReleaseResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3 container as the metrics read it. */
export interface Container extends MetricContainer {
  dockerName: string;
  memoryLimitMb: number;
}

/** contract §4.3 release. Releases arrive newest first (contract §5.7); the newest is the one the service runs. */
export function fromReleaseResource(release: ReleaseResource, index: number): MetricRelease {
  return { id: idOf(release), createdAt: release.created_at, current: index === 0 };
}

export function fromContainerResource(container: ContainerResource, releaseId: string): Container {
  return {
    id: idOf(container),
    releaseId: linkId(container, 'release') ?? releaseId,
    dockerName: container.docker_name,
    layer: container.layer,
    status: container.status,
    memoryLimitMb: container.memory_limit,
    updatedAt: container.updated_at,
  };
}
