import {
  chartedContainers,
  DEFAULT_METRIC_HORIZON,
  isMetricHorizon,
  type MetricHorizon,
  metricsForLayer,
} from '@berth/core';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { MetricsPanel } from '../../../features/metrics/components/metrics-panel.tsx';
import { useServiceContainers } from '../../../features/releases/api/use-service-containers.ts';
import type { Service } from '../../../resources/services/service.hal.ts';

/**
 * spec 2 §2 /apps/{id}/services/{serviceId}/metrics: the horizon lives in the query string
 * (`?horizon=1d`) so a reload or a shared link keeps it; without it the horizon is 1h (spec 2 §9).
 */
export function ServiceMetricsTab({ service }: { service: Service }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('horizon');
  const horizon: MetricHorizon = isMetricHorizon(requested) ? requested : DEFAULT_METRIC_HORIZON;
  const source = useServiceContainers(service.id);
  const containers = useMemo(
    () =>
      source.data ? chartedContainers(source.data.releases, source.data.containers, horizon, new Date()) : [],
    [source.data, horizon],
  );

  return (
    <QueryState query={source} loadingLabel="Loading containers">
      {() => (
        <MetricsPanel
          horizon={horizon}
          onHorizonChange={(next) =>
            setParams((current) => {
              const updated = new URLSearchParams(current);
              updated.set('horizon', next);
              return updated;
            })
          }
          metrics={metricsForLayer(service.databaseId ? 'database' : 'app')}
          containers={containers}
        />
      )}
    </QueryState>
  );
}
