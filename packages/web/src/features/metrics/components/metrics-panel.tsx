import { type ContainerMetric, METRIC_HORIZONS, type MetricHorizon } from '@berth/core';
import { useMemo } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { MetricChart } from './metric-chart.tsx';
import './metrics.css';

/** spec 2 §2 Metrics tab: a horizon switch and one chart per metric, a series per container. */
export function MetricsPanel({
  horizon,
  onHorizonChange,
  metrics,
  containers,
}: {
  horizon: MetricHorizon;
  onHorizonChange: (horizon: MetricHorizon) => void;
  metrics: readonly ContainerMetric[];
  containers: readonly { id: string }[];
}) {
  const containerIds = useMemo(() => containers.map((container) => container.id), [containers]);
  return (
    <section className="metrics-panel" aria-label="Metrics">
      <div className="metrics-toolbar">
        <fieldset className="horizon-switch">
          <legend className="visually-hidden">Horizon</legend>
          {METRIC_HORIZONS.map((item) => (
            <button
              key={item}
              type="button"
              className={item === horizon ? 'horizon-option active' : 'horizon-option'}
              aria-pressed={item === horizon}
              onClick={() => onHorizonChange(item)}
            >
              {item}
            </button>
          ))}
        </fieldset>
        <p className="metrics-caption">
          {containerIds.length === 1 ? '1 container' : `${containerIds.length} containers`}
        </p>
      </div>
      {containerIds.length === 0 ? (
        <EmptyState
          title="No data found"
          description="No container of this service ran within this horizon."
        />
      ) : (
        <div className="metric-charts">
          {metrics.map((metric) => (
            <MetricChart key={metric} metric={metric} horizon={horizon} containerIds={containerIds} />
          ))}
        </div>
      )}
    </section>
  );
}
