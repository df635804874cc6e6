import { type CreateEnvironmentInput, isOwner, permissionMessages } from '@berth/core';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apps, databases, environments, permissions, stacks } from '../../db/schema.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { createEnvironmentAccess } from '../access/environment-access.ts';
import { defaultStackFor } from '../stacks/stacks.service.ts';
import type { EnvironmentCounts, EnvironmentRow, PermissionRow } from './environments.hal.ts';

export interface EnvironmentView {
  environment: EnvironmentRow;
  counts: EnvironmentCounts;
  permissions: PermissionRow[];
}

export function createEnvironmentsService(deps: { db: Db }) {
  const { db } = deps;
  const access = createEnvironmentAccess(db);

  /** Counts and permissions for many environments in two queries. */
  async function views(rows: EnvironmentRow[]): Promise<EnvironmentView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [appCounts, databaseCounts, granted] = await Promise.all([
      db
        .select({ id: apps.environmentId, count: sql<number>`count(*)::int` })
        .from(apps)
        .where(inArray(apps.environmentId, ids))
        .groupBy(apps.environmentId),
      db
        .select({ id: databases.environmentId, count: sql<number>`count(*)::int` })
        .from(databases)
        .where(inArray(databases.environmentId, ids))
        .groupBy(databases.environmentId),
      db.select().from(permissions).where(inArray(permissions.environmentId, ids)),
    ]);
    const appsBy = new Map(appCounts.map((row) => [row.id, row.count]));
    const databasesBy = new Map(databaseCounts.map((row) => [row.id, row.count]));
    return rows.map((environment) => ({
      environment,
      counts: { apps: appsBy.get(environment.id) ?? 0, databases: databasesBy.get(environment.id) ?? 0 },
      permissions: granted.filter((p) => p.environmentId === environment.id),
    }));
  }

  return {
    /** Every environment the user may see (basic_read), across their organizations (contract §1.11). */
    async list(userId: string): Promise<EnvironmentView[]> {
      return views(await access.readableEnvironments(await access.forUser(userId)));
    },

    async get(userId: string, environmentId: number | null): Promise<EnvironmentView> {
      const row = await access.authorize(await access.forUser(userId), environmentId, 'basic_read');
      const [view] = await views([row]);
      if (!view) throw notFound('Environment');
      return view;
    },

    /** Creating an environment is an owner's act (owner or platform owner of the organization). */
    async create(userId: string, input: CreateEnvironmentInput): Promise<EnvironmentView> {
      const { actors } = await access.forUser(userId);
      const actor = actors.get(input.organization_id);
      if (!actor) throw notFound('Organization');
      if (!isOwner(actor)) throw forbidden(permissionMessages.ownerOnly);

      let stack = input.stack_id ? await stackFor(input.stack_id, input.organization_id) : undefined;
      if (input.stack_id && !stack) throw unprocessable('Stack not found', { stack_id: ['not found'] });
      stack ??= await defaultStackFor(db, input.organization_id);
      if (!stack) throw unprocessable('No stack is available for new environments');

      const [created] = await db
        .insert(environments)
        .values({
          organizationId: input.organization_id,
          stackId: stack.id,
          handle: input.handle,
          type: input.type,
          onboardingStatus: input.onboarding_status,
        })
        .onConflictDoNothing()
        .returning();
      if (!created) {
        throw unprocessable(
          `An environment with the handle "${input.handle}" already exists in this organization`,
          {
            handle: ['taken'],
          },
        );
      }
      const [view] = await views([created]);
      if (!view) throw new Error('Created environment vanished');
      return view;
    },
  };

  /** A stack the organization may place environments on: its own, or a public shared one. */
  async function stackFor(stackId: string, organizationId: string) {
    if (!/^\d{1,15}$/.test(stackId)) return undefined;
    const [stack] = await db
      .select()
      .from(stacks)
      .where(eq(stacks.id, Number(stackId)));
    if (!stack) return undefined;
    const usable = stack.organizationId ? stack.organizationId === organizationId : stack.public;
    return usable ? stack : undefined;
  }
}
export type EnvironmentsService = ReturnType<typeof createEnvironmentsService>;
