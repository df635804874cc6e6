import { apps } from '../db/schema.ts';
import type { TestApp, TestUser } from './test-app.ts';

/**
 * A new user owning a new organization with one environment and fresh apps in it (by handle, inserted
 * directly): the ground the queue and worker tests start operations on.
 */
export async function ownedApps(
  t: TestApp,
  options: { environment: string; apps: string[]; organization?: string },
) {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner, options.organization);
  const environment = await t.createEnvironment(owner, org.id, options.environment);
  const created: (typeof apps.$inferSelect)[] = [];
  for (const handle of options.apps) {
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environment.id), handle })
      .returning();
    if (app) created.push(app);
  }
  return { owner, org, environment, apps: created };
}

/** Starts an operation on an app through the API, as its owner. */
export function startAppOperation(t: TestApp, owner: TestUser, appId: number, body: Record<string, unknown>) {
  return t.call('POST', `/api/apps/${appId}/operations`, { token: owner.token, body });
}
