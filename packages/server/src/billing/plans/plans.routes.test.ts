import { PLAN_CATALOG, PLAN_MESSAGES, PLAN_NAMES, type PlanName } from '@berth/core';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '../../admin-commands.ts';
import { activePlans, plans } from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { type TestUser, testApp } from '../../testing/test-app.ts';

// Contract §5.12 and spec 1 §6/§8/§9: the plans, each organization's active plan, and who may change it.
// The limits the plans set are tested in plan-limits.test.ts.

const t = await testApp({ defaultPlan: 'starter' });
afterAll(() => t.close());

/** An Account Owner with an organization on `plan` (the operator's command puts it there). */
async function organizationOn(plan: PlanName = 'starter') {
  const owner = await t.signUp({ name: 'Owner' });
  const organization = await t.createOrganization(owner);
  if (plan !== 'starter') await runAdminCommand(t.db, ['plans', 'assign', organization.id, plan]);
  return { owner, organization };
}

async function activePlanOf(user: TestUser, organizationId: string) {
  const response = await t.call('GET', `/api/active_plans?organization_id=${organizationId}`, {
    token: user.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json()._embedded.active_plans as Array<Record<string, unknown> & { id: string }>;
}

async function planId(name: PlanName): Promise<string> {
  const [row] = await t.db.select({ id: plans.id }).from(plans).where(eq(plans.name, name));
  if (!row) throw new Error(`no ${name} plan`);
  return String(row.id);
}

describe('the plans', () => {
  it('are seeded by the migration with the figures core holds', async () => {
    const rows = await t.db.select().from(plans);
    expect(rows.map((row) => row.name).sort()).toEqual([...PLAN_NAMES].sort());
    for (const row of rows) {
      const { id: _id, createdAt: _c, updatedAt: _u, ...figures } = row;
      expect(figures).toEqual(PLAN_CATALOG[row.name as PlanName]);
    }
  });

  it('GET /plans lists them cheapest first, GET /plans/:id shows one, both for signed-in callers only', async () => {
    const { owner } = await organizationOn();
    const list = await t.call('GET', '/api/plans', { token: owner.token });
    expect(list.statusCode, list.body).toBe(200);
    const listed = list.json()._embedded.plans;
    expect(listed.map((plan: { name: string }) => plan.name)).toEqual([...PLAN_NAMES]);
    const growth = listed.find((plan: { name: string }) => plan.name === 'growth');
    // spec 1 §9: growth includes 3 GB, 10 GB, 1 endpoint; 11 GB, 60 GB and 3 available; 15% off.
    expect(growth).toMatchObject({
      _type: 'plan',
      cost_cents: 18500,
      included_container_mb: 3072,
      included_disk_gb: 10,
      included_vhosts: 1,
      container_memory_limit: 11264,
      disk_limit: 60,
      vhost_limit: 3,
      discount_percent: 15,
      ephemeral_session_limit: 2,
    });
    const one = await t.call('GET', `/api/plans/${growth.id}`, { token: owner.token });
    expect(one.json()).toEqual(growth);
    expect((await t.call('GET', '/api/plans/999999', { token: owner.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/plans')).statusCode).toBe(401);
    expect((await t.call('GET', `/api/plans/${growth.id}`)).statusCode).toBe(401);
  });
});

describe('active plans', () => {
  it('a new organization starts on the operator’s default plan (BERTH_DEFAULT_PLAN)', async () => {
    const { owner, organization } = await organizationOn();
    const [active] = await activePlanOf(owner, organization.id);
    expect(active).toMatchObject({
      _type: 'active_plan',
      organization_id: organization.id,
      plan_id: await planId('starter'),
      vhost_limit: 1,
      environment_limit: 2,
      available_plans: ['starter', 'development', 'growth', 'scale', 'production'],
    });
    expect(active?._links).toMatchObject({
      plan: { href: `http://berth.test/api/plans/${await planId('starter')}` },
      organization: { href: `http://berth.test/auth/organizations/${organization.id}` },
    });
  });

  it('members read it; others get 404, and no token 401', async () => {
    const { organization } = await organizationOn();
    const member = await t.signUp({ name: 'Member' });
    await addMember(t.db, { organizationId: organization.id, userId: member.id });
    expect(await activePlanOf(member, organization.id)).toHaveLength(1);
    const stranger = await t.signUp({ name: 'Stranger' });
    const url = `/api/active_plans?organization_id=${organization.id}`;
    expect((await t.call('GET', url, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.call('GET', url)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/active_plans', { token: member.token })).statusCode).toBe(404);
  });

  it('an organization from before plans has none (the legacy plan the console assumes)', async () => {
    const { owner, organization } = await organizationOn();
    await t.db.delete(activePlans).where(eq(activePlans.organizationId, organization.id));
    expect(await activePlanOf(owner, organization.id)).toEqual([]);
  });
});

describe('PUT /active_plans/:id', () => {
  it('moves the organization to an available plan, and the new figures are in force', async () => {
    const { owner, organization } = await organizationOn();
    const [active] = await activePlanOf(owner, organization.id);
    const growth = await planId('growth');
    const response = await t.call('PUT', `/api/active_plans/${active?.id}`, {
      token: owner.token,
      body: { plan_id: growth },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ id: active?.id, plan_id: growth, vhost_limit: 3 });
    expect((await activePlanOf(owner, organization.id))[0]).toMatchObject({ plan_id: growth });
  });

  it("takes the plan's URL as plan_id too (contract §1.9), or its id as a number", async () => {
    const { owner, organization } = await organizationOn();
    const [active] = await activePlanOf(owner, organization.id);
    const url = `/api/active_plans/${active?.id}`;
    const growth = await planId('growth');
    const byUrl = await t.call('PUT', url, {
      token: owner.token,
      body: { plan_id: `http://berth.test/api/plans/${growth}` },
    });
    expect(byUrl.statusCode, byUrl.body).toBe(200);
    expect(byUrl.json()).toMatchObject({ plan_id: growth });
    const scale = await planId('scale');
    const byNumber = await t.call('PUT', url, { token: owner.token, body: { plan_id: Number(scale) } });
    expect(byNumber.statusCode, byNumber.body).toBe(200);
    expect(byNumber.json()).toMatchObject({ plan_id: scale });
  });

  it('is refused without a token (401), outside the organization (404), and to anyone but an Account Owner (403)', async () => {
    const { owner, organization } = await organizationOn();
    const [active] = await activePlanOf(owner, organization.id);
    const url = `/api/active_plans/${active?.id}`;
    const body = { plan_id: await planId('growth') };
    expect((await t.call('PUT', url, { body })).statusCode).toBe(401);
    const stranger = await t.signUp({ name: 'Stranger' });
    await t.createOrganization(stranger, 'Elsewhere');
    const foreign = await t.call('PUT', url, { token: stranger.token, body });
    expect(foreign.statusCode).toBe(404);
    for (const roleType of ['platform_owner', 'billing_owner', 'platform_user'] as const) {
      const member = await t.signUp({ name: `Member ${roleType.length}` });
      await addMember(t.db, { organizationId: organization.id, userId: member.id, roleType });
      const denied = await t.call('PUT', url, { token: member.token, body });
      expect(denied.statusCode, roleType).toBe(403);
      expect(denied.json().message).toBe(PLAN_MESSAGES.ownersOnly);
    }
    expect((await activePlanOf(owner, organization.id))[0]).toMatchObject({
      plan_id: await planId('starter'),
    });
    expect((await t.call('PUT', '/api/active_plans/999999', { token: owner.token, body })).statusCode).toBe(
      404,
    );
  });

  it('refuses a plan not among the available ones, an unknown plan, and a body without plan_id', async () => {
    const { owner, organization } = await organizationOn();
    const [active] = await activePlanOf(owner, organization.id);
    const url = `/api/active_plans/${active?.id}`;
    const enterprise = await t.call('PUT', url, {
      token: owner.token,
      body: { plan_id: await planId('enterprise') },
    });
    expect(enterprise.statusCode).toBe(422);
    expect(enterprise.json().message).toBe(PLAN_MESSAGES.unavailable('enterprise'));
    await runAdminCommand(t.db, ['plans', 'available', organization.id, 'starter,enterprise']);
    const growth = await t.call('PUT', url, {
      token: owner.token,
      body: { plan_id: await planId('growth') },
    });
    expect(growth.json().message).toBe(PLAN_MESSAGES.unavailable('growth'));
    const unknown = await t.call('PUT', url, { token: owner.token, body: { plan_id: '999999' } });
    expect(unknown.statusCode).toBe(422);
    expect((await t.call('PUT', url, { token: owner.token, body: {} })).statusCode).toBe(422);
    expect(
      (await t.call('PUT', url, { token: owner.token, body: { plan_id: 'x'.repeat(65) } })).statusCode,
    ).toBe(422);
  });

  it('a legacy plan tells the owner to contact support', async () => {
    const { owner, organization } = await organizationOn('enterprise');
    const [active] = await activePlanOf(owner, organization.id);
    const response = await t.call('PUT', `/api/active_plans/${active?.id}`, {
      token: owner.token,
      body: { plan_id: await planId('growth') },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(PLAN_MESSAGES.legacy);
  });
});

const paying = await testApp({
  defaultPlan: 'starter',
  payments: { mode: 'local', trialDays: 14, stripe: null },
});
afterAll(() => paying.close());

describe('PUT /active_plans/:id with payments on (BERTH_PAYMENTS=local)', () => {
  it('is refused until the organization has a payment method', async () => {
    const owner = await paying.signUp({ name: 'Owner' });
    const organization = await paying.createOrganization(owner);
    const listed = await paying.call('GET', `/api/active_plans?organization_id=${organization.id}`, {
      token: owner.token,
    });
    const [active] = listed.json()._embedded.active_plans;
    const [growth] = await paying.db.select({ id: plans.id }).from(plans).where(eq(plans.name, 'growth'));
    const response = await paying.call('PUT', `/api/active_plans/${active.id}`, {
      token: owner.token,
      body: { plan_id: String(growth?.id) },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(PLAN_MESSAGES.paymentRequired);
  });
});

describe('npm run admin -- plans', () => {
  it('lists the plans, changes a figure, and refuses unknown plans, fields and values', async () => {
    const listed = await runAdminCommand(t.db, ['plans', 'list']);
    expect(listed.split('\n').map((line) => line.split(' ')[0])).toEqual([...PLAN_NAMES]);
    expect(listed).toContain('vhost_limit=3');
    const changed = await runAdminCommand(t.db, ['plans', 'set', 'development', 'ephemeral_session_limit=4']);
    expect(changed).toContain('ephemeral_session_limit=4');
    const [development] = await t.db.select().from(plans).where(eq(plans.name, 'development'));
    expect(development?.ephemeralSessionLimit).toBe(4);
    await runAdminCommand(t.db, ['plans', 'set', 'development', 'ephemeral_session_limit=1']);
    await expect(runAdminCommand(t.db, ['plans', 'set', 'gold', 'vhost_limit=1'])).rejects.toThrow(
      /Unknown plan gold/,
    );
    await expect(runAdminCommand(t.db, ['plans', 'set', 'growth', 'colour=red'])).rejects.toThrow(
      /Unknown field colour/,
    );
    await expect(runAdminCommand(t.db, ['plans', 'set', 'growth', 'vhost_limit=-1'])).rejects.toThrow(
      /vhost_limit must be a whole number/,
    );
    await expect(runAdminCommand(t.db, ['plans', 'set', 'growth', 'discount_percent=101'])).rejects.toThrow(
      /from 0 to 100/,
    );
    await expect(runAdminCommand(t.db, ['plans', 'assign', 'nobody', 'growth'])).rejects.toThrow(
      /No organization/,
    );
    await expect(runAdminCommand(t.db, ['plans'])).rejects.toThrow(/plans list/);
  });
});
