import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { environments } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import type { EnvironmentRow } from '../environments/environments.hal.ts';
import {
  assertAllowed,
  type CallerAccess,
  createEnvironmentAccess,
  type NeededScope,
} from './environment-access.ts';

/**
 * Access to resources that live in an environment (apps, services, deployments...): the same rule as
 * environments, but the 404 names the resource the caller asked for, not its environment.
 */
export function createResourceAccess(db: Db) {
  const environmentAccess = createEnvironmentAccess(db);

  return {
    forUser: environmentAccess.forUser,

    /** Ids of the environments the caller may see (basic_read), for filtering lists in one query. */
    async readableEnvironmentIds(access: CallerAccess): Promise<number[]> {
      return (await environmentAccess.readableEnvironments(access)).map((environment) => environment.id);
    },

    /** The environment holding a resource, if the caller may use `scope` there (404 invisible or absent, 403 denied). */
    async authorizeIn(
      access: CallerAccess,
      environmentId: number | null | undefined,
      scope: NeededScope,
      what: string,
    ): Promise<EnvironmentRow> {
      const [environment] =
        environmentId == null
          ? []
          : await db.select().from(environments).where(eq(environments.id, environmentId));
      if (!environment || !access.allows(environment, 'basic_read')) throw notFound(what);
      assertAllowed(access, environment, scope);
      return environment;
    },
  };
}
export type ResourceAccess = ReturnType<typeof createResourceAccess>;
