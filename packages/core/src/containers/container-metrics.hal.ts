import { z } from 'zod';

/**
 * Contract §4.4: one metric of one container as the metric tunnel answers it, plain JSON (not HAL): a
 * column-major table, `["time_0", <ISO times>…]` first, then one column per series, its label first
 * and then a value (or null) per tick.
 */
export const containerMetricsBody = z
  .strictObject({
    columns: z.array(z.array(z.union([z.string(), z.number(), z.null()]))),
  })
  .meta({ id: 'ContainerMetrics' });
export type ContainerMetricsBody = z.infer<typeof containerMetricsBody>;
