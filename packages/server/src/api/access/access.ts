import { channel } from 'node:diagnostics_channel';
import { type ActionName, actionDenial, can } from '@berth/core';
import { eq, inArray } from 'drizzle-orm';
import { accessOf, assertUsable, type CallerAccess, type CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { environments } from '../../db/schema.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import { isUuid } from '../../http/ids.ts';
import type { EnvironmentRow } from '../environments/environments.hal.ts';

type Place = Pick<EnvironmentRow, 'id' | 'organizationId'>;

/**
 * Every authorization the access layer starts, with its action, published before anything is looked up
 * (a diagnostics channel: free without subscribers). The completeness test of the api routes listens.
 */
export const authorizations = channel('berth:authorize');

export interface AuthorizationEvent {
  userId: string;
  action: ActionName;
}

function record(caller: CallerAccess, action: ActionName): void {
  if (authorizations.hasSubscribers) {
    authorizations.publish({ userId: caller.user.id, action } satisfies AuthorizationEvent);
  }
}

/** May the caller see this environment at all? Any permission there grants basic_read (spec 1 §6). */
export function isVisible(caller: CallerAccess, environment: Place): boolean {
  const actor = caller.actors.get(environment.organizationId);
  return actor !== undefined && can(actor, 'basic_read', String(environment.id));
}

/** The spec's tooltip text when the caller may not take the action on this environment, else null. */
export function denial(caller: CallerAccess, environment: Place, action: ActionName): string | null {
  const actor = caller.actors.get(environment.organizationId) ?? { roleTypes: [], permissions: [] };
  return actionDenial(actor, action, { environmentId: String(environment.id) });
}

export function allows(caller: CallerAccess, environment: Place, action: ActionName): boolean {
  return denial(caller, environment, action) === null;
}

/** 403 with the spec's text when the caller may not take the action on a visible environment. */
export function assertAllowed(caller: CallerAccess, environment: Place, action: ActionName): void {
  record(caller, action);
  const reason = denial(caller, environment, action);
  if (reason !== null) throw forbidden(reason);
}

/**
 * The one access factory of the api family. A resource of another organization, one the caller cannot
 * even see, or an absent one is 404 naming what was asked for; a visible one without the action is 403
 * with the spec's text; lists keep only what the caller may read. An organization of the caller's that
 * this token may not use (SSO enforcement) is 403 for its resources and left out of lists.
 */
export function createAccess(db: Db) {
  async function environmentRow(environmentId: number | null | undefined) {
    if (environmentId == null) return undefined;
    const [row] = await db.select().from(environments).where(eq(environments.id, environmentId));
    return row;
  }

  /** Environments where the caller may take a read action, across their organizations, in id order. */
  async function readableEnvironments(caller: CallerAccess, action: ActionName): Promise<EnvironmentRow[]> {
    record(caller, action);
    if (caller.actors.size === 0) return [];
    const rows = await db
      .select()
      .from(environments)
      .where(inArray(environments.organizationId, [...caller.actors.keys()]))
      .orderBy(environments.id);
    return rows.filter((row) => isVisible(caller, row) && allows(caller, row, action));
  }

  return {
    /** The caller's access: the request's when given, else read once for this call. */
    caller: (ref: CallerRef) => accessOf(db, ref),

    readableEnvironments,

    /** Ids of those environments, for filtering lists in one query. */
    async readableEnvironmentIds(caller: CallerAccess, action: ActionName): Promise<number[]> {
      return (await readableEnvironments(caller, action)).map((environment) => environment.id);
    },

    /** An environment the caller may take the action on (404 naming `what` if invisible or absent, 403 if denied). */
    async environment(
      caller: CallerAccess,
      environmentId: number | null | undefined,
      action: ActionName,
      what = 'Environment',
    ): Promise<EnvironmentRow> {
      record(caller, action);
      const environment = await environmentRow(environmentId);
      if (environment) assertUsable(caller, environment.organizationId);
      if (!environment || !isVisible(caller, environment)) throw notFound(what);
      assertAllowed(caller, environment, action);
      return environment;
    },

    /**
     * A row that lives in an environment, looked up by the service (undefined when absent), checked like
     * its environment; the 404 names the resource asked for, not its environment.
     */
    async resource<T extends { environmentId: number | null }>(
      caller: CallerAccess,
      row: T | undefined,
      action: ActionName,
      what: string,
    ): Promise<{ row: T; environment: EnvironmentRow }> {
      record(caller, action);
      const environment = await environmentRow(row?.environmentId);
      if (environment) assertUsable(caller, environment.organizationId);
      if (!row || !environment || !isVisible(caller, environment)) throw notFound(what);
      assertAllowed(caller, environment, action);
      return { row, environment };
    },

    /** The organizations where the caller may take an organization-wide action (a read every member has). */
    organizations(caller: CallerAccess, action: ActionName): string[] {
      record(caller, action);
      return [...caller.actors].filter(([, actor]) => actionDenial(actor, action) === null).map(([id]) => id);
    },

    /**
     * The caller's actor in an organization they belong to (404 naming `what` otherwise), for an action
     * on environments within it that the caller then checks environment by environment.
     */
    member(caller: CallerAccess, organizationId: string, action: ActionName, what = 'Organization') {
      record(caller, action);
      if (isUuid(organizationId)) assertUsable(caller, organizationId);
      const actor = isUuid(organizationId) ? caller.actors.get(organizationId) : undefined;
      if (!actor) throw notFound(what);
      return actor;
    },

    /** The caller's actor in an organization they belong to (404 naming `what` otherwise), for organization-wide actions. */
    organization(caller: CallerAccess, organizationId: string, action: ActionName, what = 'Organization') {
      record(caller, action);
      if (isUuid(organizationId)) assertUsable(caller, organizationId);
      const actor = isUuid(organizationId) ? caller.actors.get(organizationId) : undefined;
      if (!actor) throw notFound(what);
      const reason = actionDenial(actor, action);
      if (reason !== null) throw forbidden(reason);
      return actor;
    },
  };
}
export type Access = ReturnType<typeof createAccess>;
