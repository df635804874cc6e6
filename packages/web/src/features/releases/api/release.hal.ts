import type { MetricContainer, MetricRelease } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.3 release. */
export interface ReleaseHal extends HalResource {
  docker_repo?: string | null;
  docker_ref?: string | null;
  created_at?: string;
}

/** contract §4.3 container. */
export interface ContainerHal extends HalResource {
  docker_name?: string | null;
  layer?: string | null;
  status?: string | null;
  memory_limit?: number | null;
  updated_at?: string;
}

export interface Container extends MetricContainer {
  dockerName: string;
  memoryLimitMb: number;
}

/** Releases arrive newest first (contract §5.7); the newest is the one the service runs. */
export function fromReleaseHal(release: ReleaseHal, index: number): MetricRelease {
  return { id: idOf(release), createdAt: release.created_at ?? '', current: index === 0 };
}

export function fromContainerHal(container: ContainerHal, releaseId: string): Container {
  return {
    id: idOf(container),
    releaseId: linkId(container, 'release') ?? releaseId,
    dockerName: container.docker_name ?? '',
    layer: container.layer ?? '',
    status: container.status ?? '',
    memoryLimitMb: container.memory_limit ?? 0,
    updatedAt: container.updated_at ?? '',
  };
}
