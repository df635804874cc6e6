import { containerMetricsBody, metricQuerySchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Callers } from '../../auth/caller-access.ts';
import { parseNumericId } from '../../http/ids.ts';
import { pathParameter } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import type { ContainerMetricsService } from './container-metrics.service.ts';

/** The metric tunnel family (contract §2, §5.14): `GET /proxy/:containerId`, plain JSON (§4.4). */
export async function containerMetricsRoutes(
  fastify: FastifyInstance,
  deps: { callers: Callers; metrics: ContainerMetricsService },
) {
  const { callers, metrics } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/proxy/:containerId',
    {
      schema: {
        tags: ['Container Metrics'],
        summary: 'One metric of a container over a horizon ending now',
        params: z.strictObject({ containerId: pathParameter }),
        // A bad query is 422 before any lookup; `ts` (the console's cache buster) is ignored.
        querystring: metricQuerySchema,
        response: responses({ 200: containerMetricsBody }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const table = await metrics.query(caller, parseNumericId(request.params.containerId), request.query);
      reply.header('cache-control', 'no-store');
      return table;
    },
  );
}
