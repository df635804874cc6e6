import { z } from 'zod';

// A service's container logs (a Berth addition: `GET /api/services/:id/logs`): the last lines its
// running containers wrote, oldest first. The console's Logs tab shows them; the drains ship the same.

export const SERVICE_LOG_TAIL_DEFAULT = 200;
/** The most lines one answer holds (a bound on one request's work and size). */
export const SERVICE_LOG_TAIL_MAX = 1000;
/** A line longer than this is cut (with an ellipsis) before it is answered. */
export const SERVICE_LOG_LINE_MAX = 4000;

export const serviceLogMessages = {
  tail: `Tail must be a whole number between 1 and ${SERVICE_LOG_TAIL_MAX}`,
} as const;

export const serviceLogsQuery = z.object({
  tail: z
    .preprocess(
      (value) => (typeof value === 'string' && /^\d{1,6}$/.test(value.trim()) ? Number(value) : value),
      z
        .number({ error: serviceLogMessages.tail })
        .int(serviceLogMessages.tail)
        .min(1, serviceLogMessages.tail)
        .max(SERVICE_LOG_TAIL_MAX, serviceLogMessages.tail),
    )
    .default(SERVICE_LOG_TAIL_DEFAULT),
});

export const serviceLogLine = z.strictObject({
  /** When the container wrote it (ISO 8601). */
  time: z.string().max(40, { abort: true }),
  /** The container's name (its docker name). */
  container: z.string().max(255, { abort: true }),
  stream: z.enum(['stdout', 'stderr']),
  // A cut line ends with an ellipsis past the limit.
  line: z.string().max(SERVICE_LOG_LINE_MAX + 1, { abort: true }),
});
export type ServiceLogLine = z.infer<typeof serviceLogLine>;

export const serviceLogsBody = z
  .strictObject({
    _type: z.literal('service_logs'),
    lines: z.array(serviceLogLine),
  })
  .meta({ id: 'ServiceLogs' });
export type ServiceLogsBody = z.infer<typeof serviceLogsBody>;

/** Cuts a line to the most an answer carries. */
export function boundedLogLine(line: string): string {
  return line.length > SERVICE_LOG_LINE_MAX ? `${line.slice(0, SERVICE_LOG_LINE_MAX)}…` : line;
}
