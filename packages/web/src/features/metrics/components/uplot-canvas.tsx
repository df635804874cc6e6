import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { MetricTable } from '../api/container-metric.ts';

export interface CanvasSeries {
  /** The container id and the series label: unique within a chart. */
  id: string;
  legend: string;
  color: string;
  dashed: boolean;
}

const HEIGHT = 220;

/** The theme on <html data-theme>, so the canvas (which cannot read CSS variables) redraws with it. */
function useDocumentTheme(): string {
  const [theme, setTheme] = useState(() => document.documentElement.dataset.theme ?? 'light');
  useEffect(() => {
    const root = document.documentElement;
    const observer = new MutationObserver(() => setTheme(root.dataset.theme ?? 'light'));
    observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return theme;
}

function cssColor(element: Element, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

/**
 * The drawn chart (uPlot, loaded with the first chart only). Each container's table has its own
 * ticks, so they are joined on time: explicit nulls stay gaps, join artefacts are bridged.
 */
export function UPlotCanvas({
  tables,
  series,
  unit,
  title,
}: {
  tables: readonly MetricTable[];
  series: readonly CanvasSeries[];
  unit: string;
  title: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const theme = useDocumentTheme();

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const data = uPlot.join(
      tables.map(
        (table) =>
          [
            table.times.map((time) => time / 1000),
            ...table.series.map((item) => item.values),
          ] as uPlot.AlignedData,
      ),
    );
    // A container that has only just started has a point or two: draw them as dots, or nothing shows.
    const counts = tables.flatMap((table) =>
      table.series.map((item) => item.values.filter((value) => value !== null).length),
    );
    const axisColor = cssColor(element, '--color-text-muted', theme === 'dark' ? '#a0a9b8' : '#5b6575');
    const gridColor = cssColor(element, '--color-border', theme === 'dark' ? '#253044' : '#e2e5ea');
    const axis = {
      stroke: axisColor,
      grid: { stroke: gridColor, width: 1 },
      ticks: { stroke: gridColor, width: 1 },
    };
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height: HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: {
          // A little room after now, so the newest point is not cut in half by the edge.
          x: { time: true, range: (_u, min, max) => [min, max + (max - min) * 0.01] },
          y: { range: (_u, _min, max) => [0, max && max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          axis,
          {
            ...axis,
            size: 64,
            values: (_u, values) => values.map((value) => (unit ? `${value} ${unit}` : String(value))),
          },
        ],
        series: [
          {},
          ...series.map((item, index) => ({
            label: item.legend,
            stroke: item.color,
            width: 1.5,
            ...(item.dashed ? { dash: [6, 4] } : {}),
            ...((counts[index] ?? 0) <= 3 ? { points: { show: true, size: 7, fill: item.color } } : {}),
          })),
        ],
      },
      data,
      element,
    );
    const resize = new ResizeObserver(() =>
      plot.setSize({ width: Math.max(element.clientWidth, 200), height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [tables, series, unit, theme]);

  return <div ref={ref} className="metric-chart-canvas" role="img" aria-label={`${title} over time`} />;
}
