import { metricQuerySchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { parseBody } from '../../http/errors.ts';
import { parseNumericId } from '../../http/ids.ts';
import type { Runtime } from '../../runtimes/runtime.ts';
import { createContainerMetricsService } from './container-metrics.service.ts';

/** The metric tunnel family (contract §2, §5.14): `GET /proxy/:containerId`, plain JSON (§4.4). */
export async function containerMetricsRoutes(
  app: FastifyInstance,
  deps: { db: Db; callers: Callers; runtimes: Record<string, Runtime> },
) {
  const { callers } = deps;
  const metrics = createContainerMetricsService(deps);

  app.get<{ Params: { containerId: string } }>('/proxy/:containerId', async (request, reply) => {
    const caller = await callers.require(request);
    // A bad query is 422 before any lookup; `ts` (the console's cache buster) is ignored.
    const query = parseBody(metricQuerySchema, request.query);
    const table = await metrics.query(caller, parseNumericId(request.params.containerId), query);
    reply.header('cache-control', 'no-store');
    return table;
  });
}
