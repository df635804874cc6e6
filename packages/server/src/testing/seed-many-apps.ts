/**
 * For the end-to-end test of lists past one page (issue 19): a fresh embedded database in BERTH_DATA_DIR
 * with one verified user and organization whose environment holds SEED_APPS apps (default 5050), each
 * with a web service, bulk-inserted, and SEED_OPERATIONS (default 45) finished restarts of the newest app
 * over the last hour, for Activity's pages; the newest app is named on the last line printed, as JSON
 * with the user's email and password. Run with `node --import tsx`, then start the server on the directory.
 */
import { eq } from 'drizzle-orm';
import { ensureDefaultStack } from '../api/stacks/stacks.service.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { apps, environments, operations, services, users } from '../db/schema.ts';

const COUNT = Number.parseInt(process.env.SEED_APPS ?? '5050', 10);
const OPERATIONS = Number.parseInt(process.env.SEED_OPERATIONS ?? '45', 10);
const PASSWORD = 'Harbour-Pilot-2024';
const config = { ...loadConfig(), worker: false };
const database = await openDatabase({ dataDir: config.dataDir });
const { app, close } = await buildApp(config, { database });
const call = (url: string, body: unknown, token?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/hal+json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    payload: JSON.stringify(body),
  });

const email = `many-apps-${Date.now()}@example.com`;
const signUp = await call('/auth/users', {
  name: 'Many Apps',
  email,
  password: PASSWORD,
  challengeToken: '',
  origin: 'app',
});
if (signUp.statusCode !== 201) throw new Error(`sign-up failed: ${signUp.body}`);
await database.db.update(users).set({ verified: true }).where(eq(users.email, email));
const login = await call('/auth/tokens', {
  username: email,
  password: PASSWORD,
  otp_token: '',
  grant_type: 'password',
  scope: 'manage',
  expires_in: 3600,
});
const token: string = login.json().access_token;
const organization = await call('/auth/organizations', { name: 'Many Apps Inc' }, token);
if (organization.statusCode !== 201) throw new Error(`organization failed: ${organization.body}`);
const stack = await ensureDefaultStack(database.db);
const [environment] = await database.db
  .insert(environments)
  .values({
    organizationId: organization.json().id,
    stackId: stack.id,
    handle: 'crowded',
    onboardingStatus: 'completed',
  })
  .returning();
if (!environment) throw new Error('environment insert failed');
const handle = (index: number) => `app-${String(index).padStart(5, '0')}`;
for (let start = 0; start < COUNT; start += 1000) {
  const chunk = Array.from({ length: Math.min(1000, COUNT - start) }, (_, i) => ({
    environmentId: environment.id,
    handle: handle(start + i),
    status: 'provisioned',
    deploymentMethod: 'git',
  }));
  const inserted = await database.db.insert(apps).values(chunk).returning({ id: apps.id });
  await database.db.insert(services).values(
    inserted.map((row) => ({
      environmentId: environment.id,
      appId: row.id,
      handle: 'web',
      processType: 'web',
      containerCount: 2,
      containerMemoryLimitMb: 1024,
    })),
  );
}
const [newest] = await database.db
  .select({ id: apps.id })
  .from(apps)
  .where(eq(apps.handle, handle(COUNT - 1)));
const now = Date.now();
if (newest && OPERATIONS > 0) {
  await database.db.insert(operations).values(
    Array.from({ length: OPERATIONS }, (_, i) => {
      const at = new Date(now - (i + 1) * 60_000);
      return {
        organizationId: organization.json().id,
        environmentId: environment.id,
        resourceType: 'app',
        resourceId: newest.id,
        resourceHandle: handle(COUNT - 1),
        type: 'restart',
        status: 'succeeded',
        note: `restart ${i + 1}`,
        createdAt: at,
        updatedAt: at,
      };
    }),
  );
}
await close();
console.log(
  JSON.stringify({ email, password: PASSWORD, environmentId: environment.id, newest: handle(COUNT - 1) }),
);
