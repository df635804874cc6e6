export const releaseKeys = {
  all: ['releases'] as const,
  /** A service's releases of the metric lookback with their containers, stopped ones included. */
  serviceContainers: (serviceId: string) => [...releaseKeys.all, 'service-containers', serviceId] as const,
};
