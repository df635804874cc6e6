import { DEFAULT_SHARED_STACK, hidsMessages, isOwner } from '@berth/core';
import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { environments, stacks, vpcPeers, vpnTunnels } from '../../db/schema.ts';
import { selectPage } from '../../db/select-page.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { runsRealContainers } from '../../runtimes/runtime.ts';
import { createAccess } from '../access/access.ts';
import type { StackRow } from './stacks.hal.ts';

/** The default domain of a simulated stack (endpoints' default hostnames hang off it). */
const SIMULATED_DEFAULT_DOMAIN = 'on-berth.localhost';

/**
 * Makes sure the default shared stack exists, on the configured runtime (BERTH_RUNTIME), at every
 * start. A changed runtime applies to the stack's next operations; what the old runtime ran stays there.
 * On the docker runtime, default endpoint hostnames hang off BERTH_APPS_DOMAIN (`appsDomain`).
 */
export async function ensureDefaultStack(
  db: Db,
  runtime: string = DEFAULT_SHARED_STACK.runtime,
  appsDomain?: string,
  autoscaling: { horizontal: boolean; vertical: boolean } = { horizontal: true, vertical: true },
): Promise<StackRow> {
  const defaultDomain = runsRealContainers(runtime) && appsDomain ? appsDomain : SIMULATED_DEFAULT_DOMAIN;
  await db
    .insert(stacks)
    .values({
      name: DEFAULT_SHARED_STACK.name,
      region: DEFAULT_SHARED_STACK.region,
      runtime,
      public: true,
      isDefault: true,
      defaultDomain,
      horizontalAutoscaling: autoscaling.horizontal,
      verticalAutoscaling: autoscaling.vertical,
    })
    // The operator's settings hold at every start (BERTH_RUNTIME, BERTH_APPS_DOMAIN, BERTH_AUTOSCALING).
    .onConflictDoUpdate({
      target: stacks.name,
      set: {
        runtime,
        defaultDomain,
        horizontalAutoscaling: autoscaling.horizontal,
        verticalAutoscaling: autoscaling.vertical,
      },
    });
  const [stack] = await db.select().from(stacks).where(eq(stacks.name, DEFAULT_SHARED_STACK.name));
  if (!stack) throw new Error('Default stack is missing');
  return stack;
}

/**
 * Stacks a member of these organizations can see (contract §1.11): stacks the organizations own,
 * public shared stacks, and shared stacks that host one of their environments.
 */
export function visibleStacks(db: Db, organizationIds: string[]): Promise<StackRow[]> {
  const conditions = [and(isNull(stacks.organizationId), eq(stacks.public, true))];
  if (organizationIds.length) {
    const hosting = db
      .select({ id: environments.stackId })
      .from(environments)
      .where(inArray(environments.organizationId, organizationIds));
    conditions.push(inArray(stacks.organizationId, organizationIds), inArray(stacks.id, hosting));
  }
  return db
    .select()
    .from(stacks)
    .where(or(...conditions))
    .orderBy(asc(stacks.id));
}

/** The stack a new environment lands on when none is named: the organization's default, else the shared default. */
export async function defaultStackFor(db: Db, organizationId: string): Promise<StackRow | undefined> {
  const [own] = await db
    .select()
    .from(stacks)
    .where(and(eq(stacks.organizationId, organizationId), eq(stacks.isDefault, true)));
  if (own) return own;
  const [shared] = await db
    .select()
    .from(stacks)
    .where(and(isNull(stacks.organizationId), eq(stacks.isDefault, true)))
    .orderBy(asc(stacks.id));
  if (shared) return shared;
  const [named] = await db.select().from(stacks).where(eq(stacks.name, DEFAULT_SHARED_STACK.name));
  return named;
}

/** Stacks as the caller sees them: what every member of their organizations sees (`stack.read`). */
export function createStacksService(deps: { db: Db }) {
  const { db } = deps;
  const access = createAccess(db);
  const visibleTo = async (ref: CallerRef) =>
    visibleStacks(db, access.organizations(await access.caller(ref), 'stack.read'));

  async function get(ref: CallerRef, id: number | null): Promise<StackRow> {
    const stack = (await visibleTo(ref)).find((row) => row.id === id);
    if (!stack) throw notFound('Stack');
    return stack;
  }

  /**
   * Whether the caller sees what support set up for the stack (its VPN tunnels and VPC peers, spec 2 §2):
   * only a dedicated stack has its organization's, and only its owners and the members with a permission
   * on one of its environments see them. A shared stack's are no tenant's; to anyone else the list is empty.
   */
  async function seesNetworking(ref: CallerRef, stack: StackRow): Promise<boolean> {
    if (stack.organizationId === null) return false;
    const actor = (await access.caller(ref)).actors.get(stack.organizationId);
    if (!actor) return false;
    if (isOwner(actor)) return true;
    const permitted = actor.permissions.map((permission) => Number(permission.environmentId));
    if (permitted.length === 0) return false;
    const [hosted] = await db
      .select({ id: environments.id })
      .from(environments)
      .where(and(eq(environments.stackId, stack.id), inArray(environments.id, permitted)))
      .limit(1);
    return hosted !== undefined;
  }

  /** The stack's rows of a networking table for a caller who sees them (seesNetworking), else none. */
  async function networkingScope(ref: CallerRef, stack: StackRow) {
    return (await seesNetworking(ref, stack)) ? undefined : sql`false`;
  }

  return {
    list: visibleTo,
    get,

    /** The stack's VPN tunnels (spec 2 §2), as support recorded them, to those who see them (seesNetworking). */
    async vpnTunnels(ref: CallerRef, id: number | null, paging: Paging) {
      const stack = await get(ref, id);
      const page = await selectPage(db, vpnTunnels, {
        where: and(eq(vpnTunnels.stackId, stack.id), await networkingScope(ref, stack)),
        orderBy: [asc(vpnTunnels.id)],
        paging,
      });
      return { stack, ...page };
    },

    /** The stack's VPC peering connections (spec 2 §2), as support recorded them. */
    async vpcPeers(ref: CallerRef, id: number | null, paging: Paging) {
      const stack = await get(ref, id);
      const page = await selectPage(db, vpcPeers, {
        where: and(eq(vpcPeers.stackId, stack.id), await networkingScope(ref, stack)),
        orderBy: [asc(vpcPeers.id)],
        paging,
      });
      return { stack, ...page };
    },

    /**
     * spec 2 §2: the Managed HIDS reports of a stack that exposes them; any other answers the spec's
     * message (403). Berth runs no host intrusion detection of its own, so no stack has a report yet:
     * a stack marked as exposing them answers an empty list.
     */
    async intrusionDetectionReports(ref: CallerRef, id: number | null) {
      const stack = await get(ref, id);
      if (!stack.exposeIntrusionDetectionReports) throw forbidden(hidsMessages.notExposed, 'not_exposed');
      return { stack, items: [] as never[] };
    },
  };
}
export type StacksService = ReturnType<typeof createStacksService>;
