import { type Actor, buildActor, canAct, type RoleType, type Scope } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { memberships, organizations, permissions, roles, whitelistMemberships } from '../db/schema.ts';
import type { AuthGuard, CallerOptions } from '../http/authenticate.ts';
import { type MembershipInfo, membershipColumns, organizationIdsOf } from './access.ts';
import {
  type OrganizationSsoFacts,
  type Reauthentication,
  reauthenticationError,
  reauthenticationNeeded,
  type TokenSsoFacts,
} from './sso/sso-access.ts';
import type { Caller } from './tokens/token.service.ts';

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
  /** The caller's roles in the organizations this token may use. */
  readonly memberships: readonly MembershipInfo[];
  /** The caller's actor per organization they belong to and this token may use. */
  readonly actors: ReadonlyMap<string, Actor>;
  /**
   * The organizations the caller belongs to that this token may not use until they sign in again (SSO
   * enforcement, or an SSO session of another organization; auth/sso/sso-access.ts). They are left out of
   * `memberships` and `actors`, so whatever reads those treats them as a stranger's (404), and
   * `assertUsable` answers them 403.
   */
  readonly reauthentication: ReadonlyMap<string, Reauthentication>;
}

/**
 * What a service accepts as its caller: the request's resolved access, a signed-in caller (its token
 * decides what SSO lets it use), or a bare user (tools and tests: no token, no SSO rule).
 */
export type CallerRef = CallerAccess | Caller | CallerUser;

/**
 * The caller's memberships and actors in one query, however many organizations they belong to: each role
 * the user holds with its permissions beside it (a role without any reads once, with none). Every signed-in
 * request asks it, so it is one round trip rather than two in a row.
 */
export async function loadCallerAccess(
  db: Db,
  user: CallerUser,
  /**
   * The request's token: an organization (SSO) token acts in its organization only, and organizations
   * enforcing SSO refuse other tokens (issue 36). Tools, which act with no token, leave it out.
   */
  token?: TokenSsoFacts,
): Promise<CallerAccess> {
  const rows = await db
    .select({
      ...membershipColumns,
      environmentId: permissions.environmentId,
      scope: permissions.scope,
      organizationName: organizations.name,
      ssoEnforced: organizations.ssoEnforced,
      bypassId: whitelistMemberships.id,
    })
    .from(memberships)
    .innerJoin(roles, eq(memberships.roleId, roles.id))
    .innerJoin(organizations, eq(organizations.id, roles.organizationId))
    .leftJoin(
      whitelistMemberships,
      and(
        eq(whitelistMemberships.organizationId, roles.organizationId),
        eq(whitelistMemberships.userId, memberships.userId),
      ),
    )
    .leftJoin(permissions, eq(permissions.roleId, roles.id))
    .where(eq(memberships.userId, user.id));
  const list = new Map<string, MembershipInfo>();
  const organizationFacts = new Map<string, OrganizationSsoFacts>();
  const granted: { roleId: string; environmentId: number; scope: Scope }[] = [];
  for (const row of rows) {
    if (!list.has(row.roleId)) {
      const roleType = row.roleType as RoleType;
      list.set(row.roleId, {
        organizationId: row.organizationId,
        roleId: row.roleId,
        roleType,
        privileged: row.privileged,
      });
      const known = organizationFacts.get(row.organizationId);
      organizationFacts.set(row.organizationId, {
        id: row.organizationId,
        name: row.organizationName,
        ssoEnforced: row.ssoEnforced,
        bypass: row.bypassId !== null,
        roleTypes: [...(known?.roleTypes ?? []), roleType],
      });
    }
    if (row.environmentId !== null && row.scope !== null) {
      granted.push({ roleId: row.roleId, environmentId: row.environmentId, scope: row.scope as Scope });
    }
  }
  const reauthentication = new Map<string, Reauthentication>();
  if (token) {
    for (const organization of organizationFacts.values()) {
      const need = reauthenticationNeeded(organization, token);
      if (need) reauthentication.set(organization.id, need);
    }
  }
  const memberOf = [...list.values()].filter((m) => !reauthentication.has(m.organizationId));
  const held = memberOf.map((m) => ({ id: m.roleId, type: m.roleType, organizationId: m.organizationId }));
  const actors = new Map<string, Actor>();
  for (const organizationId of organizationIdsOf(memberOf)) {
    actors.set(organizationId, buildActor(held, granted, organizationId));
  }
  return {
    user: { id: user.id, name: user.name, email: user.email },
    memberships: memberOf,
    actors,
    reauthentication,
  };
}

export function isCallerAccess(ref: CallerRef): ref is CallerAccess {
  return 'actors' in ref;
}

/** The access of a caller reference: as given when already resolved, else loaded now (with its token). */
export function accessOf(db: Db, ref: CallerRef): Promise<CallerAccess> {
  if (isCallerAccess(ref)) return Promise.resolve(ref);
  return 'token' in ref ? loadCallerAccess(db, ref.user, ref.token) : loadCallerAccess(db, ref);
}

/**
 * 403 when the caller belongs to the organization but this token may not use it (SSO); nothing
 * otherwise. Called where an organization's access is resolved, before an absent actor reads as 404.
 */
export function assertUsable(caller: CallerAccess, organizationId: string): void {
  const need = caller.reauthentication.get(organizationId);
  if (need) throw reauthenticationError(need);
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
        pending = loadCallerAccess(db, caller.user, caller.token);
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
