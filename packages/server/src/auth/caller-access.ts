import { type Actor, buildActor, canAct, type RoleType, type Scope } from '@berth/core';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { memberships, permissions, roles } from '../db/schema.ts';
import type { AuthGuard, CallerOptions } from '../http/authenticate.ts';
import { type MembershipInfo, membershipColumns, organizationIdsOf } from './access.ts';

/** Who is calling, as operations record them (the user's name and email are kept on each operation). */
export interface CallerUser {
  id: string;
  name: string;
  email: string;
}

/**
 * The caller and everything authorization needs about them, resolved once per request: their roles in
 * every organization they belong to and their actor (core's permission view) in each.
 */
export interface CallerAccess {
  readonly user: CallerUser;
  readonly memberships: readonly MembershipInfo[];
  /** The caller's actor per organization they belong to. */
  readonly actors: ReadonlyMap<string, Actor>;
}

/** What a service accepts as its caller: the request's resolved access, or a bare user (tools, tests). */
export type CallerRef = CallerAccess | CallerUser;

/**
 * The caller's memberships and actors in one query, however many organizations they belong to: each role
 * the user holds with its permissions beside it (a role without any reads once, with none). Every signed-in
 * request asks it, so it is one round trip rather than two in a row.
 */
export async function loadCallerAccess(db: Db, user: CallerUser): Promise<CallerAccess> {
  const rows = await db
    .select({
      ...membershipColumns,
      environmentId: permissions.environmentId,
      scope: permissions.scope,
    })
    .from(memberships)
    .innerJoin(roles, eq(memberships.roleId, roles.id))
    .leftJoin(permissions, eq(permissions.roleId, roles.id))
    .where(eq(memberships.userId, user.id));
  const list = new Map<string, MembershipInfo>();
  const granted: { roleId: string; environmentId: number; scope: Scope }[] = [];
  for (const row of rows) {
    if (!list.has(row.roleId)) {
      list.set(row.roleId, {
        organizationId: row.organizationId,
        roleId: row.roleId,
        roleType: row.roleType as RoleType,
        privileged: row.privileged,
      });
    }
    if (row.environmentId !== null && row.scope !== null) {
      granted.push({ roleId: row.roleId, environmentId: row.environmentId, scope: row.scope as Scope });
    }
  }
  const memberOf = [...list.values()];
  const held = memberOf.map((m) => ({ id: m.roleId, type: m.roleType, organizationId: m.organizationId }));
  const actors = new Map<string, Actor>();
  for (const organizationId of organizationIdsOf(memberOf)) {
    actors.set(organizationId, buildActor(held, granted, organizationId));
  }
  return { user: { id: user.id, name: user.name, email: user.email }, memberships: memberOf, actors };
}

export function isCallerAccess(ref: CallerRef): ref is CallerAccess {
  return 'actors' in ref;
}

/** The access of a caller reference: as given when already resolved, else loaded now. */
export function accessOf(db: Db, ref: CallerRef): Promise<CallerAccess> {
  return isCallerAccess(ref) ? Promise.resolve(ref) : loadCallerAccess(db, ref);
}

/**
 * Resolves the signed-in caller of a request with their access, once per request: every service the
 * handler calls gets the same object, so memberships and permissions are read once.
 */
export function createCallers(deps: { db: Db; guard: AuthGuard }) {
  const { db, guard } = deps;
  const resolved = new WeakMap<FastifyRequest, Promise<CallerAccess>>();

  return {
    /** The caller's access; 401/403 exactly as `guard.requireCaller` (its token checks run on each call). */
    async require(request: FastifyRequest, options?: CallerOptions): Promise<CallerAccess> {
      const caller = await guard.requireCaller(request, options);
      let pending = resolved.get(request);
      if (!pending) {
        pending = loadCallerAccess(db, caller.user);
        resolved.set(request, pending);
      }
      return pending;
    },
  };
}
export type Callers = ReturnType<typeof createCallers>;

/**
 * The organizations where the caller may manage members (core's `member.roles.read`: owners, and the
 * admins of any of its roles), among those given.
 */
export function organizationsManagingMembers(
  caller: CallerAccess,
  organizationIds: Iterable<string>,
): string[] {
  return [...new Set(organizationIds)].filter((organizationId) => {
    const actor = caller.actors.get(organizationId);
    if (!actor) return false;
    const isRoleAdmin = caller.memberships.some((m) => m.organizationId === organizationId && m.privileged);
    return canAct(actor, 'member.roles.read', { isRoleAdmin });
  });
}
