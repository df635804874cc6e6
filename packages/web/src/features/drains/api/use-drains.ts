import {
  type LogDrainResource,
  type MetricDrainResource,
  type OperationResource,
  POLL_INTERVAL_MS,
} from '@berth/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromLogDrainResource, type LogDrain } from '../../../resources/log-drains/log-drain.hal.ts';
import {
  fromMetricDrainResource,
  type MetricDrain,
} from '../../../resources/metric-drains/metric-drain.hal.ts';

// Log and metric drains take the same calls (contract §5.10): listed per environment, created then
// provisioned, operated on (provision, restart, deprovision) and deleted.

export type DrainKind = 'log' | 'metric';
interface Drains {
  log: LogDrain;
  metric: MetricDrain;
}
const COLLECTION = { log: 'log_drains', metric: 'metric_drains' } as const;
const read = {
  log: (resource: unknown) => fromLogDrainResource(resource as LogDrainResource),
  metric: (resource: unknown) => fromMetricDrainResource(resource as MetricDrainResource),
};

export const drainKeys = {
  all: (kind: DrainKind) => ['drains', kind] as const,
  ofEnvironment: (kind: DrainKind, environmentId: string) =>
    ['drains', kind, 'environment', environmentId] as const,
};

/**
 * GET /accounts/:id/<kind>_drains?page=N, auto-paged (contract §1.4): page 1, then the rest in parallel.
 * Polled while the page is open: statuses settle and the counts move.
 */
export function useEnvironmentDrains<K extends DrainKind>(kind: K, environmentId: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: drainKeys.ofEnvironment(kind, environmentId),
    queryFn: async ({ signal }): Promise<Drains[K][]> => {
      const path = `/accounts/${encodeURIComponent(environmentId)}/${COLLECTION[kind]}`;
      return (await allPages<unknown>('api', path, COLLECTION[kind], signal)).map(
        (resource) => read[kind](resource) as Drains[K],
      );
    },
    enabled: phase === 'authenticated' && environmentId !== '',
    refetchInterval: POLL_INTERVAL_MS.endpoint,
    refetchIntervalInBackground: false,
  });
}

export type DrainOperationType = 'provision' | 'configure' | 'deprovision';

function startDrainOperation(kind: DrainKind, drainId: string, type: DrainOperationType) {
  return apiRequest<OperationResource>(
    'api',
    `/${COLLECTION[kind]}/${encodeURIComponent(drainId)}/operations`,
    {
      method: 'POST',
      body: { type },
    },
  );
}

/** POST /accounts/:id/<kind>_drains, then `provision` (the console creates and provisions). */
export function useCreateDrain(kind: DrainKind, environmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The body carries a URL with a key, a token or a password: not kept in the cache once sent.
    gcTime: 0,
    mutationFn: async (body: object) => {
      const created = await apiRequest<{ id: string | number }>(
        'api',
        `/accounts/${encodeURIComponent(environmentId)}/${COLLECTION[kind]}`,
        { method: 'POST', body },
      );
      await startDrainOperation(kind, String(created.id), 'provision');
      return String(created.id);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: drainKeys.all(kind) }),
  });
}

/** POST /<kind>_drains/:id/operations: provision again, restart (log drains' configure) or deprovision. */
export function useDrainOperation(kind: DrainKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ drainId, type }: { drainId: string; type: DrainOperationType }) =>
      startDrainOperation(kind, drainId, type),
    onSettled: () => queryClient.invalidateQueries({ queryKey: drainKeys.all(kind) }),
  });
}

/** DELETE /<kind>_drains/:id: a drain that is not shipping. */
export function useDeleteDrain(kind: DrainKind) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (drainId: string) =>
      apiRequest<void>('api', `/${COLLECTION[kind]}/${encodeURIComponent(drainId)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: drainKeys.all(kind) }),
  });
}
