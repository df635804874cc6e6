import { DEFAULT_INSTANCE_CLASS, type ServiceResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3 service as the console reads it: an app's services, the service page, the metrics. */
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

/** A null command reads as ""; an empty instance class as the default one. */
export function fromServiceResource(service: ServiceResource): Service {
  return {
    id: idOf(service),
    handle: service.handle,
    processType: service.process_type,
    command: service.command ?? '',
    environmentId: linkId(service, 'account') ?? '',
    appId: linkId(service, 'app'),
    databaseId: linkId(service, 'database'),
    containerCount: service.container_count,
    containerMemoryMb: service.container_memory_limit_mb,
    instanceClass: service.instance_class || DEFAULT_INSTANCE_CLASS,
    forceZeroDowntime: service.force_zero_downtime,
    naiveHealthCheck: service.naive_health_check,
    stopTimeout: service.stop_timeout,
    createdAt: service.created_at,
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
