import {
  type ContainerCollection,
  METRIC_RELEASE_LOOKBACK_DAYS,
  type MetricRelease,
  type ReleaseCollection,
} from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import {
  type Container,
  fromContainerResource,
  fromReleaseResource,
} from '../../../resources/releases/release.hal.ts';
import { releaseKeys } from './release-keys.ts';

export interface ServiceContainers {
  releases: MetricRelease[];
  containers: Container[];
}

/**
 * contract §4.4: the releases a service's metrics look at (the current one and those of the last 7
 * days) with all their containers, stopped ones included; the chart picks those inside its horizon.
 */
export function useServiceContainers(serviceId: string) {
  return useQuery({
    queryKey: releaseKeys.serviceContainers(serviceId),
    queryFn: async ({ signal }): Promise<ServiceContainers> => {
      const list = await apiRequest<ReleaseCollection>(
        'api',
        `/services/${encodeURIComponent(serviceId)}/releases?with_deleted=true`,
        { signal },
      );
      const since = Date.now() - METRIC_RELEASE_LOOKBACK_DAYS * 86400_000;
      const releases = embeddedList(list, 'releases')
        .map(fromReleaseResource)
        .filter((release) => release.current || Date.parse(release.createdAt) >= since);
      const containers = await Promise.all(
        releases.map(async (release) => {
          const page = await apiRequest<ContainerCollection>(
            'api',
            `/releases/${encodeURIComponent(release.id)}/containers?with_deleted=true`,
            { signal },
          );
          return embeddedList(page, 'containers').map((container) =>
            fromContainerResource(container, release.id),
          );
        }),
      );
      return { releases, containers: containers.flat() };
    },
  });
}
