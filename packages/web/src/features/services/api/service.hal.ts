import { DEFAULT_CONTAINER_MEMORY_MB, DEFAULT_INSTANCE_CLASS } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.3 service. */
export interface ServiceHal extends HalResource {
  handle: string;
  process_type?: string | null;
  command?: string | null;
  docker_repo?: string | null;
  docker_ref?: string | null;
  container_count?: number | null;
  container_memory_limit_mb?: number | null;
  instance_class?: string | null;
  force_zero_downtime?: boolean | null;
  naive_health_check?: boolean | null;
  stop_timeout?: number | null;
  created_at?: string;
}

export interface Service {
  id: string;
  handle: string;
  processType: string;
  command: string;
  environmentId: string;
  appId: string | null;
  databaseId: string | null;
  containerCount: number;
  containerMemoryMb: number;
  instanceClass: string;
  forceZeroDowntime: boolean;
  naiveHealthCheck: boolean;
  stopTimeout: number | null;
  createdAt: string;
}

export function fromServiceHal(service: ServiceHal): Service {
  return {
    id: idOf(service),
    handle: service.handle ?? '',
    processType: service.process_type ?? '',
    command: service.command ?? '',
    environmentId: linkId(service, 'account') ?? '',
    appId: linkId(service, 'app'),
    databaseId: linkId(service, 'database'),
    // contract §4.3: a null count reads as 0, a null memory limit as 512.
    containerCount: service.container_count ?? 0,
    containerMemoryMb: service.container_memory_limit_mb ?? DEFAULT_CONTAINER_MEMORY_MB,
    instanceClass: service.instance_class || DEFAULT_INSTANCE_CLASS,
    forceZeroDowntime: service.force_zero_downtime === true,
    naiveHealthCheck: service.naive_health_check === true,
    stopTimeout: service.stop_timeout ?? null,
    createdAt: service.created_at ?? '',
  };
}

/**
 * spec 2 §4 deployment strategy label; the service page passes the types of the service's endpoints
 * (GET /services/{id}/vhosts).
 */
export function deploymentStrategy(
  service: Pick<Service, 'forceZeroDowntime' | 'naiveHealthCheck'>,
  endpointTypes: readonly string[] = [],
): string {
  if (endpointTypes.length > 0) {
    return endpointTypes.some((type) => type === 'http' || type === 'http_proxy_protocol' || type === 'grpc')
      ? 'Zero-Downtime'
      : 'Minimal-Downtime';
  }
  const base = service.forceZeroDowntime ? 'Zero-Downtime' : 'Zero-Overlap';
  return service.naiveHealthCheck ? `${base}, Simple Healthcheck` : base;
}

/** Memory in GB as MB / 1024 (spec 2 §9). */
export function memoryGb(mb: number): number {
  return mb / 1024;
}
