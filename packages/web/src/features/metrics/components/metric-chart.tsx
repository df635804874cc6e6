import { CONTAINER_METRIC_INFO, type ContainerMetric, type MetricHorizon, metricLegend } from '@berth/core';
import { lazy, Suspense, useMemo } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useMetricChart } from '../api/use-metric-chart.ts';
import type { CanvasSeries } from './uplot-canvas.tsx';

// The chart library loads with the first chart, not with the console or the service page.
const UPlotCanvas = lazy(() =>
  import('./uplot-canvas.tsx').then((module) => ({ default: module.UPlotCanvas })),
);

/** Series colours readable on the light and the dark theme alike. */
const PALETTE = [
  '#6366f1',
  '#10b981',
  '#f59e0b',
  '#ec4899',
  '#06b6d4',
  '#8b5cf6',
  '#84cc16',
  '#ef4444',
  '#3b82f6',
  '#f97316',
];

/** One metric of the charted containers: loading, error (with the message) or the chart and its legend. */
export function MetricChart({
  metric,
  horizon,
  containerIds,
}: {
  metric: ContainerMetric;
  horizon: MetricHorizon;
  containerIds: readonly string[];
}) {
  const info = CONTAINER_METRIC_INFO[metric];
  const chart = useMetricChart(metric, horizon, containerIds);
  const series = useMemo<CanvasSeries[]>(
    () =>
      (chart.data ?? [])
        .flatMap((table) => table.series.map((item) => ({ containerId: table.containerId, ...item })))
        .map((item, index) => ({
          // Every container has the same labels, so only the container tells two series apart.
          id: `${item.containerId}:${item.label}`,
          // contract §4.4: the legend reads "<metric> - <label>".
          legend: metricLegend(metric, item.label),
          color: PALETTE[index % PALETTE.length] ?? '#6366f1',
          dashed: item.label.endsWith(' limit'),
        })),
    [chart.data, metric],
  );
  const title = `${info.title}${info.unit ? ` (${info.unit})` : ''}`;

  return (
    <section className="metric-chart" aria-label={`${metric} chart`}>
      <header className="metric-chart-header">
        <h2 className="metric-chart-title">{title}</h2>
        <code className="metric-chart-name">{metric}</code>
      </header>
      {chart.isPending ? (
        <div className="metric-chart-state">
          <Spinner label={`Loading ${metric}`} />
        </div>
      ) : chart.error ? (
        <div className="metric-chart-state">
          <Banner variant="error">Error: {chart.error.message}</Banner>
        </div>
      ) : series.length === 0 ? (
        <div className="metric-chart-state">
          <p className="metric-chart-empty">No data found</p>
        </div>
      ) : (
        <>
          <Suspense
            fallback={
              <div className="metric-chart-state">
                <Spinner label={`Loading ${metric}`} />
              </div>
            }
          >
            <UPlotCanvas tables={chart.data} series={series} unit={info.unit} title={info.title} />
          </Suspense>
          <ul className="metric-legend" aria-label={`${metric} legend`}>
            {series.map((item) => (
              <li key={item.id} className="metric-legend-item">
                <span
                  className={item.dashed ? 'metric-legend-swatch dashed' : 'metric-legend-swatch'}
                  style={{ borderColor: item.color }}
                  aria-hidden="true"
                />
                {item.legend}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
