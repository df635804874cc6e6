import type { RoleType, Scope } from '@berth/core';
import { eq } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import {
  apps,
  codeScanResults,
  configurations,
  containers,
  databases,
  deployments,
  images,
  memberships,
  operations,
  permissions,
  releases,
  roles,
  serviceDefinitions,
  services,
  sources,
} from '../db/schema.ts';

/**
 * Adds a user to an organization through a new role. Invitations (the product's way in) come with the
 * members work; until then tests place members directly.
 */
export async function addMember(
  db: Db,
  options: { organizationId: string; userId: string; roleType?: RoleType; name?: string },
) {
  const [role] = await db
    .insert(roles)
    .values({
      organizationId: options.organizationId,
      name: options.name ?? 'Developers',
      type: options.roleType ?? 'platform_user',
    })
    .returning();
  if (!role) throw new Error('role insert failed');
  await db.insert(memberships).values({ userId: options.userId, roleId: role.id });
  return role;
}

export async function grant(db: Db, options: { roleId: string; environmentId: string; scope: Scope }) {
  await db
    .insert(permissions)
    .values({ roleId: options.roleId, environmentId: Number(options.environmentId), scope: options.scope });
}

/**
 * Control-plane rows inserted directly, so API tests do not depend on the operations engine having
 * produced them. Each takes the table's insert shape (columns with defaults are optional).
 */
async function insertRow<T extends PgTable>(
  db: Db,
  table: T,
  values: T['$inferInsert'],
): Promise<T['$inferSelect']> {
  const [row] = await db
    .insert(table as PgTable)
    .values(values as PgTable['$inferInsert'])
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row as T['$inferSelect'];
}

export const seedApp = (db: Db, values: typeof apps.$inferInsert) => insertRow(db, apps, values);

export const seedConfiguration = (db: Db, values: typeof configurations.$inferInsert) =>
  insertRow(db, configurations, values);

export const seedServiceDefinition = (db: Db, values: typeof serviceDefinitions.$inferInsert) =>
  insertRow(db, serviceDefinitions, values);

export const seedDatabase = (db: Db, values: typeof databases.$inferInsert) =>
  insertRow(db, databases, values);

export const seedService = (db: Db, values: typeof services.$inferInsert) => insertRow(db, services, values);

export const seedRelease = (db: Db, values: typeof releases.$inferInsert) => insertRow(db, releases, values);

export const seedContainer = (
  db: Db,
  values: Omit<typeof containers.$inferInsert, 'dockerName' | 'host' | 'memoryLimit'> &
    Partial<Pick<typeof containers.$inferInsert, 'dockerName' | 'host' | 'memoryLimit'>>,
) =>
  insertRow(db, containers, {
    dockerName: `container-${values.releaseId}`,
    host: 'sim-host-1',
    memoryLimit: 512,
    ...values,
  });

export const seedImage = (db: Db, values: typeof images.$inferInsert) => insertRow(db, images, values);

export const seedSource = (db: Db, values: typeof sources.$inferInsert) => insertRow(db, sources, values);

export const seedOperation = (db: Db, values: typeof operations.$inferInsert) =>
  insertRow(db, operations, values);

/** A deployment of an app, placed in its app's environment as deploying places it. */
export async function seedDeployment(db: Db, values: Omit<typeof deployments.$inferInsert, 'environmentId'>) {
  const [app] = await db
    .select({ environmentId: apps.environmentId })
    .from(apps)
    .where(eq(apps.id, values.appId));
  if (!app) throw new Error(`no app ${values.appId}`);
  return insertRow(db, deployments, { ...values, environmentId: app.environmentId });
}

export const seedCodeScanResult = (db: Db, values: typeof codeScanResults.$inferInsert) =>
  insertRow(db, codeScanResults, values);
