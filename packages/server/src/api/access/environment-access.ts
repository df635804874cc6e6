import { type Actor, can, isOwner, permissionMessages, type Scope, scopeDenialMessage } from '@berth/core';
import { eq, inArray } from 'drizzle-orm';
import { actorIn, membershipsOf, organizationIdsOf } from '../../auth/access.ts';
import type { Db } from '../../db/client.ts';
import { environments } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { EnvironmentRow } from '../environments/environments.hal.ts';

export type NeededScope = Scope | 'owner';

export interface CallerAccess {
  /** The caller's actor per organization they belong to. */
  actors: Map<string, Actor>;
  /** May the caller use `scope` on this environment? */
  allows(environment: Pick<EnvironmentRow, 'id' | 'organizationId'>, scope: NeededScope): boolean;
}

/**
 * Access checks of the api family: a resource of another organization (or one the caller cannot
 * even see) is 404; a visible one without the needed scope is 403 with the spec's tooltip text.
 */
export function createEnvironmentAccess(db: Db) {
  async function forUser(userId: string): Promise<CallerAccess> {
    const list = await membershipsOf(db, userId);
    const actors = new Map<string, Actor>();
    for (const organizationId of organizationIdsOf(list)) {
      actors.set(organizationId, await actorIn(db, list, organizationId));
    }
    return {
      actors,
      allows(environment, scope) {
        const actor = actors.get(environment.organizationId);
        if (!actor) return false;
        return scope === 'owner' ? isOwner(actor) : can(actor, scope, String(environment.id));
      },
    };
  }

  return {
    forUser,

    /** Environments the caller may see at all (basic_read), across their organizations. */
    async readableEnvironments(access: CallerAccess): Promise<EnvironmentRow[]> {
      if (access.actors.size === 0) return [];
      const rows = await db
        .select()
        .from(environments)
        .where(inArray(environments.organizationId, [...access.actors.keys()]))
        .orderBy(environments.id);
      return rows.filter((row) => access.allows(row, 'basic_read'));
    },

    /** Loads an environment and checks the caller's scope on it (404 if invisible, 403 if not allowed). */
    async authorize(
      access: CallerAccess,
      environmentId: number | null,
      scope: NeededScope,
    ): Promise<EnvironmentRow> {
      const [environment] =
        environmentId === null
          ? []
          : await db.select().from(environments).where(eq(environments.id, environmentId));
      if (!environment || !access.allows(environment, 'basic_read')) throw notFound('Environment');
      assertAllowed(access, environment, scope);
      return environment;
    },
  };
}
export type EnvironmentAccess = ReturnType<typeof createEnvironmentAccess>;

/** 403 with the spec's text when the caller lacks the scope on a visible environment. */
export function assertAllowed(
  access: CallerAccess,
  environment: Pick<EnvironmentRow, 'id' | 'organizationId'>,
  scope: NeededScope,
): void {
  if (access.allows(environment, scope)) return;
  throw forbidden(
    scope === 'owner' ? permissionMessages.ownerOnly : scopeDenialMessage(scope, String(environment.id)),
  );
}
