import { boundedLogLine, type ServiceLogsBody } from '@berth/core';
import { and, eq, isNull } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { containers, environments, releases, services, stacks } from '../../db/schema.ts';
import { ApiError } from '../../http/errors.ts';
import type { Runtime } from '../../runtimes/runtime.ts';
import { createAccess } from '../access/access.ts';

/** A service's container output, read from its stack's runtime (no copy is kept in the database). */
export function createServiceLogsService(deps: { db: Db; runtimes: Record<string, Runtime> }) {
  const { db, runtimes } = deps;
  const access = createAccess(db);

  return {
    /** The newest `tail` lines of the service's running containers, oldest first. */
    async tail(ref: CallerRef, serviceId: number | null, tail: number): Promise<ServiceLogsBody> {
      const [found] =
        serviceId === null
          ? []
          : await db
              .select({ service: services, runtime: stacks.runtime })
              .from(services)
              .innerJoin(environments, eq(services.environmentId, environments.id))
              .innerJoin(stacks, eq(environments.stackId, stacks.id))
              .where(eq(services.id, serviceId));
      const caller = await access.caller(ref);
      const { row: service } = await access.resource(caller, found?.service, 'service.logs.read', 'Service');
      const runtime = found ? runtimes[found.runtime] : undefined;
      if (!runtime)
        throw new ApiError(503, 'unavailable', `Logs are not available on the ${found?.runtime} runtime`);
      const live = await db
        .select({ container: containers })
        .from(containers)
        .innerJoin(releases, eq(containers.releaseId, releases.id))
        .where(and(eq(releases.serviceId, service.id), isNull(containers.deletedAt)));
      const lines = await runtime.containerLogs(
        live.map(({ container }) => ({
          id: container.id,
          dockerName: container.dockerName,
          layer: container.layer,
          processType: service.processType,
          startedAt: container.createdAt,
        })),
        tail,
      );
      return {
        _type: 'service_logs',
        lines: lines.map((entry) => ({
          time: entry.time.toISOString(),
          container: entry.container,
          stream: entry.stream,
          line: boundedLogLine(entry.line),
        })),
      };
    },
  };
}
export type ServiceLogsService = ReturnType<typeof createServiceLogsService>;
