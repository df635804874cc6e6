import { randomBytes } from 'node:crypto';
import { ssoEnforcementMessages } from '@berth/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { closePeriodCommand } from '../../admin-commands.ts';
import { loadCallerAccess } from '../../auth/caller-access.ts';
import {
  activePlans,
  apps,
  backups,
  databases,
  disks,
  invoices,
  organizations,
  plans,
  services,
  usageHours,
  vhosts,
} from '../../db/schema.ts';
import { addMember } from '../../testing/factories.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';
import { activePlanTerms, createInvoicesService, INVOICES_DENIED } from './invoices.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const HOUR_MS = 3_600_000;
const NOVEMBER = new Date('2026-11-01T00:00:00Z');
const DECEMBER = new Date('2026-12-01T00:00:00Z');

/** A service on the test app's database at a given time; its portal key is the file's (the app's links are the app's). */
const PORTAL_KEY = randomBytes(32);
function invoicesAt(now: Date) {
  return createInvoicesService({
    db: t.db,
    planTerms: activePlanTerms(t.db),
    portalKey: PORTAL_KEY,
    now: () => now,
  });
}

/** An owner's organization on `plan`, created at the start of November. */
async function organizationOn(plan: string) {
  const owner = await t.signUp();
  const org = await t.createOrganization(owner);
  await t.db.update(organizations).set({ createdAt: NOVEMBER }).where(eq(organizations.id, org.id));
  const [row] = await t.db.select({ id: plans.id }).from(plans).where(eq(plans.name, plan));
  if (!row) throw new Error(`no ${plan} plan`);
  await t.db
    .insert(activePlans)
    .values({ organizationId: org.id, planId: row.id, availablePlans: [plan] })
    .onConflictDoUpdate({ target: activePlans.organizationId, set: { planId: row.id } });
  // Whatever the app's own meter sampled is replaced by the hours each test seeds.
  await t.db.delete(usageHours).where(eq(usageHours.organizationId, org.id));
  return { owner, org };
}

/** Every hour of November at the same usage. */
async function seedNovember(organizationId: string, hour: Partial<typeof usageHours.$inferInsert>) {
  const rows = Array.from({ length: 720 }, (_, i) => ({
    organizationId,
    hour: new Date(NOVEMBER.getTime() + i * HOUR_MS),
    ...hour,
  }));
  await t.db.insert(usageHours).values(rows);
}

describe('the usage meter', () => {
  it("samples an organization's containers by class, endpoints, disks and backups once an hour", async () => {
    const { owner, org } = await organizationOn('growth');
    const environmentId = Number((await t.createEnvironment(owner, org.id, 'meter')).id);
    const [app] = await t.db.insert(apps).values({ environmentId, handle: 'web' }).returning();
    const [database] = await t.db
      .insert(databases)
      .values({ environmentId, handle: 'db', type: 'postgresql' })
      .returning();
    if (!app || !database) throw new Error('seed failed');
    const [web] = await t.db
      .insert(services)
      .values([
        { environmentId, appId: app.id, handle: 'web', containerCount: 2, containerMemoryLimitMb: 1024 },
        {
          environmentId,
          appId: app.id,
          handle: 'worker',
          containerCount: 1,
          containerMemoryLimitMb: 512,
          instanceClass: 'r5',
        },
        {
          environmentId,
          databaseId: database.id,
          handle: 'postgresql',
          containerCount: 1,
          containerMemoryLimitMb: 1024,
          instanceClass: 'c5',
        },
      ])
      .returning();
    if (!web) throw new Error('seed failed');
    await t.db.insert(vhosts).values([
      { environmentId, serviceId: web.id, externalHost: 'elb-1.example.com' },
      { environmentId, serviceId: web.id, externalHost: 'shared.example.com', shared: true },
      // Not on the runtime yet: costs nothing.
      { environmentId, serviceId: web.id },
    ]);
    await t.db
      .insert(disks)
      .values({ databaseId: database.id, environmentId, handle: 'db-data', size: 20, provisionedIops: 4000 });
    const backup = { environmentId, databaseHandle: 'db', databaseType: 'postgresql', kind: 'manual' };
    await t.db.insert(backups).values([
      { ...backup, databaseId: database.id, sizeGb: 1.5 },
      { ...backup, databaseId: database.id, sizeGb: 0.25 },
    ]);

    const at = new Date('2026-11-20T10:42:00Z');
    // Two servers sampling the hour at once, and a later pass in it (or a restarted server): one row.
    await Promise.all([invoicesAt(at).meter(), invoicesAt(at).meter()]);
    await invoicesAt(new Date('2026-11-20T10:59:00Z')).meter();
    const rows = await t.db.select().from(usageHours).where(eq(usageHours.organizationId, org.id));
    expect(rows).toEqual([
      {
        organizationId: org.id,
        hour: new Date('2026-11-20T10:00:00Z'),
        mClassMb: 2048,
        cClassMb: 1024,
        rClassMb: 512,
        endpoints: 1,
        sharedEndpoints: 1,
        diskGb: 20,
        extraIops: 1000,
        backupMb: 1792,
      },
    ]);
  });
});

describe('closing a period', () => {
  it('invoices a month of usage above the plan, less its discount, plus the plan, to the cent', async () => {
    const { org } = await organizationOn('growth');
    await seedNovember(org.id, { mClassMb: 4096, endpoints: 2, diskGb: 20, backupMb: 5 * 1024 });
    // An hour before the period and one after it are not part of it.
    await t.db.insert(usageHours).values([
      { organizationId: org.id, hour: new Date(NOVEMBER.getTime() - HOUR_MS), mClassMb: 99_999 },
      { organizationId: org.id, hour: DECEMBER, mClassMb: 99_999 },
    ]);
    const made = await invoicesAt(new Date('2026-12-01T00:05:00Z')).pass();
    expect(made.invoiced).toBeGreaterThanOrEqual(1);
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.organizationId, org.id));
    expect(invoice).toMatchObject({
      periodStart: NOVEMBER,
      periodEnd: DECEMBER,
      planName: 'growth',
      discountPercent: 15,
      planCents: 18_500,
      // $57.60 containers + $43.20 endpoints + $1.97 disk + $0.10 backups, above what growth includes
      usageCents: 10_287,
      discountCents: 1543,
      totalCents: 27_244,
    });
    // A later pass in the same month makes no second invoice; the next period starts where this ended.
    expect((await invoicesAt(new Date('2026-12-01T01:00:00Z')).pass()).invoiced).toBe(0);
    const next = await invoicesAt(new Date('2026-12-15T09:30:00Z')).closePeriods(
      new Date('2026-12-15T09:30:00Z'),
    );
    const mine = next.filter((row) => row.organizationId === org.id);
    expect(mine.map((row) => [row.periodStart, row.periodEnd])).toEqual([
      [DECEMBER, new Date('2026-12-15T09:00:00Z')],
    ]);
    // December's one sampled hour fits in the 3 GB × 345 hours growth includes; the plan costs 345/744 of
    // a month.
    expect(mine[0]?.lines).toEqual([
      {
        description: 'Containers, m class',
        used: 99_999 / 1024,
        included: 99_999 / 1024,
        unit: 'GB-hours',
        amountCents: 0,
      },
    ]);
    expect(mine[0]?.planCents).toBe(8579);
    expect(mine[0]?.totalCents).toBe(8579);
  });

  it('makes one invoice when two closers race for the same period', async () => {
    const { org } = await organizationOn('starter');
    await seedNovember(org.id, { mClassMb: 1024 });
    const closers = [invoicesAt(DECEMBER), invoicesAt(DECEMBER), invoicesAt(DECEMBER)];
    await Promise.all(closers.map((closer) => closer.closePeriods(DECEMBER)));
    const rows = await t.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.organizationId, org.id), eq(invoices.periodStart, NOVEMBER)));
    expect(rows).toHaveLength(1);
    // starter is free and includes 3 GB: a month at 1 GB costs nothing.
    expect(rows[0]?.totalCents).toBe(0);
  });
});

describe('GET /billing/billing_details/:id/invoices and the portal', () => {
  it('lists the invoices to owners and billing owners, and shows them on a page the console may frame', async () => {
    const { owner, org } = await organizationOn('scale');
    await seedNovember(org.id, { cClassMb: 20 * 1024 });
    await invoicesAt(DECEMBER).closePeriods(DECEMBER);
    const billingOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: billingOwner.id, roleType: 'billing_owner' });

    for (const user of [owner, billingOwner]) {
      const response = await t.call('GET', `/billing/billing_details/${org.id}/invoices`, {
        token: user.token,
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.total_count).toBe(1);
      const [item] = body._embedded.invoices;
      // scale: 10 GB included; 10 GB × 720 h × $0.10 = $720.00, 20% off = $576.00, plus $599.00
      expect(item).toMatchObject({
        _type: 'invoice',
        plan_name: 'scale',
        period_start: NOVEMBER.toISOString(),
        period_end: DECEMBER.toISOString(),
        usage_cents: 72_000,
        discount_cents: 14_400,
        total_cents: 117_500,
      });

      const portal = new URL(body._links.portal.href);
      const page = await t.call('GET', `${portal.pathname}${portal.search}`);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('$1,175.00');
      expect(page.body).toContain('Containers, c class');
      expect(page.headers['x-frame-options']).toBeUndefined();
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("default-src 'none'");
    }
  });

  it('refuses members without a billing role, strangers and forged or expired links', async () => {
    const { owner, org } = await organizationOn('growth');
    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    const path = `/billing/billing_details/${org.id}/invoices`;

    const refused = await t.call('GET', path, { token: member.token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(INVOICES_DENIED);
    const stranger = await t.signUp();
    expect((await t.call('GET', path, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.call('GET', path)).statusCode).toBe(401);

    const listed = await t.call('GET', path, { token: owner.token });
    expect(listed.json()._embedded.invoices).toEqual([]);
    const portal = new URL(listed.json()._links.portal.href);
    const empty = await t.call('GET', `${portal.pathname}${portal.search}`);
    expect(empty.body).toContain('You have no invoices.');
    // The same signature for another organization, or a later expiry, is refused.
    const other = await organizationOn('growth');
    const forged = `/billing/invoice_portal/${other.org.id}${portal.search}`;
    expect((await t.call('GET', forged)).statusCode).toBe(404);
    portal.searchParams.set('expires', String(Number(portal.searchParams.get('expires')) + 60));
    expect((await t.call('GET', `${portal.pathname}${portal.search}`)).statusCode).toBe(404);
    expect((await t.call('GET', `/billing/invoice_portal/${org.id}`)).statusCode).toBe(404);

    // A link made an hour and a minute ago has expired.
    const then = invoicesAt(new Date(Date.now() - 61 * 60_000));
    const access = await loadCallerAccess(t.db, { id: owner.id, name: '', email: owner.email });
    const old = then.portalLink(access, org.id);
    if (!old) throw new Error('the owner got no portal link');
    expect(await then.portal(org.id, old.expires, old.signature)).toEqual({
      organizationName: 'Acme Inc',
      invoices: [],
    });
    expect(await invoicesAt(new Date()).portal(org.id, old.expires, old.signature)).toBeNull();
    // Only those who may read the invoices get a link.
    const memberAccess = await loadCallerAccess(t.db, { id: member.id, name: '', email: member.email });
    expect(then.portalLink(memberAccess, org.id)).toBeNull();
  });
});

describe('npm run admin -- close-period', () => {
  it("closes every organization's open period at the end of this hour, once", async () => {
    const { org } = await organizationOn('growth');
    await t.db.insert(usageHours).values({ organizationId: org.id, hour: new Date('2026-11-02T05:00:00Z') });
    const invoicesNow = invoicesAt(new Date('2026-11-03T10:20:00Z'));
    const now = new Date('2026-11-03T10:20:00Z');
    expect(await closePeriodCommand(invoicesNow, [], now)).toMatch(
      /^Closed \d+ billing period\(s\) at 2026-11-03T11:00:00.000Z: \d+ invoice\(s\), \$[\d,]+\.\d\d in all\.$/,
    );
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.organizationId, org.id));
    // Two days and eleven hours of growth at $185 for November's 720 hours.
    expect(invoice).toMatchObject({
      periodStart: NOVEMBER,
      periodEnd: new Date('2026-11-03T11:00:00Z'),
      planCents: 1516,
    });
    expect(await closePeriodCommand(invoicesNow, [], now)).toBe(
      'No billing period to close: every organization is invoiced to the end of this hour.',
    );
    await expect(closePeriodCommand(invoicesNow, ['--all'], now)).rejects.toThrow('Unknown option --all');
  });
});

describe('periods of an organization made mid-month, and of one that used nothing', () => {
  it('bills a late organization from the hour it was made: the plan and its inclusions for those hours only', async () => {
    const { org } = await organizationOn('growth');
    const made = new Date('2026-11-16T10:30:00Z');
    await t.db.update(organizations).set({ createdAt: made }).where(eq(organizations.id, org.id));
    const from = new Date('2026-11-16T10:00:00Z');
    await t.db.insert(usageHours).values(
      Array.from({ length: 350 }, (_, i) => ({
        organizationId: org.id,
        hour: new Date(from.getTime() + i * HOUR_MS),
        mClassMb: 4096,
      })),
    );
    const closed = await invoicesAt(DECEMBER).closePeriods(DECEMBER);
    const [invoice] = closed.filter((row) => row.organizationId === org.id);
    // 350 hours: growth's 3 GB are included for each of them, the fourth GB costs 350 × $0.08 = $28.00,
    // 15% off; the plan costs 350/720 of $185.00.
    expect(invoice).toMatchObject({
      periodStart: from,
      periodEnd: DECEMBER,
      usageCents: 2800,
      discountCents: 420,
      planCents: 8993,
      totalCents: 11_373,
    });
  });

  it('invoices a period without usage at the plan alone, with no lines', async () => {
    const { org } = await organizationOn('growth');
    const closed = await invoicesAt(DECEMBER).closePeriods(DECEMBER);
    const [invoice] = closed.filter((row) => row.organizationId === org.id);
    expect(invoice).toMatchObject({
      periodStart: NOVEMBER,
      periodEnd: DECEMBER,
      lines: [],
      usageCents: 0,
      discountCents: 0,
      planCents: 18_500,
      totalCents: 18_500,
    });
  });
});

describe('closing many organizations', () => {
  it("one organization's failure costs the others nothing, and is reported", async () => {
    const broken = await organizationOn('growth');
    const sound = await organizationOn('growth');
    const terms = activePlanTerms(t.db);
    const errors: unknown[] = [];
    const closer = createInvoicesService({
      db: t.db,
      // A plan whose price is no number: pricing throws for this organization alone.
      planTerms: async (ids) => {
        const byOrganization = await terms(ids);
        const plan = byOrganization.get(broken.org.id);
        if (plan) byOrganization.set(broken.org.id, { ...plan, costCents: Number.NaN });
        return byOrganization;
      },
      portalKey: PORTAL_KEY,
      now: () => DECEMBER,
      onError: (error) => errors.push(error),
    });
    const made = await closer.closePeriods(DECEMBER);
    expect(made.filter((row) => row.organizationId === sound.org.id)).toHaveLength(1);
    expect(made.filter((row) => row.organizationId === broken.org.id)).toHaveLength(0);
    expect(errors.map(String)).toEqual([expect.stringContaining(broken.org.id)]);
    // The broken one stays open: a later close takes it up.
    const later = await invoicesAt(DECEMBER).closePeriods(DECEMBER);
    expect(later.map((row) => row.organizationId)).toContain(broken.org.id);
  });

  it('closes the month even when sampling usage fails, and reports the failure', async () => {
    const { org } = await organizationOn('growth');
    const errors: unknown[] = [];
    const meter = createInvoicesService({
      db: t.db,
      planTerms: activePlanTerms(t.db),
      portalKey: PORTAL_KEY,
      now: () => new Date('2026-12-01T00:10:00Z'),
      onError: (error) => errors.push(error),
    });
    const selects = vi.spyOn(t.db, 'select').mockImplementationOnce(() => {
      throw new Error('the usage query failed');
    });
    try {
      expect((await meter.pass()).sampled).toBe(0);
    } finally {
      selects.mockRestore();
    }
    expect(errors.map(String)).toEqual([expect.stringContaining('the usage query failed')]);
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.organizationId, org.id));
    expect(invoice).toMatchObject({ periodStart: NOVEMBER, periodEnd: DECEMBER });
  });

  it('looks for periods to close once per month boundary, not at every pass', async () => {
    await organizationOn('starter');
    const at = new Date('2027-02-01T00:10:00Z');
    const meter = invoicesAt(at);
    expect((await meter.pass()).invoiced).toBeGreaterThan(0);
    const selects = vi.spyOn(t.db, 'select');
    try {
      expect(await meter.pass()).toEqual({ sampled: 0, invoiced: 0 });
      expect(selects).not.toHaveBeenCalled();
    } finally {
      selects.mockRestore();
    }
  });
});

describe('the invoices list', () => {
  it('answers one page at a time (contract §1.4), newest first, with next and prev links', async () => {
    const { owner, org } = await organizationOn('growth');
    for (const end of ['2026-11-10T00:00:00Z', '2026-11-20T00:00:00Z', '2026-12-01T00:00:00Z']) {
      await invoicesAt(new Date(end)).closePeriods(new Date(end));
    }
    const path = `/billing/billing_details/${org.id}/invoices`;
    const first = await t.call('GET', `${path}?per_page=2`, { token: owner.token });
    expect(first.statusCode).toBe(200);
    const page1 = first.json();
    expect(page1).toMatchObject({ current_page: 1, per_page: 2, total_count: 3 });
    expect(page1._embedded.invoices.map((item: { period_end: string }) => item.period_end)).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2026-11-20T00:00:00.000Z',
    ]);
    expect(page1._links.prev).toBeUndefined();
    const next = new URL(page1._links.next.href);
    const second = (await t.call('GET', `${next.pathname}${next.search}`, { token: owner.token })).json();
    expect(second).toMatchObject({ current_page: 2, per_page: 2, total_count: 3 });
    expect(second._embedded.invoices.map((item: { period_end: string }) => item.period_end)).toEqual([
      '2026-11-10T00:00:00.000Z',
    ]);
    expect(second._links.next).toBeUndefined();
    expect(second._links.prev).toBeDefined();
    // Every page carries the portal link.
    expect(second._links.portal.href).toContain(`/billing/invoice_portal/${org.id}?`);
  });

  it('answers 403 to a billing owner whose token the organization refuses until they sign in with SSO', async () => {
    const { org } = await organizationOn('growth');
    const billingOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: billingOwner.id, roleType: 'billing_owner' });
    await t.db.update(organizations).set({ ssoEnforced: true }).where(eq(organizations.id, org.id));
    const refused = await t.call('GET', `/billing/billing_details/${org.id}/invoices`, {
      token: billingOwner.token,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(ssoEnforcementMessages.required('Acme Inc'));
  });
});

describe('the invoice portal page', () => {
  it("shows the organization's own invoices, its name escaped, printable, private and framed by the console only", async () => {
    const { owner, org } = await organizationOn('scale');
    const name = '<script>alert(1)</script> & "Sons"';
    await t.db.update(organizations).set({ name }).where(eq(organizations.id, org.id));
    await seedNovember(org.id, { cClassMb: 20 * 1024 });
    const other = await organizationOn('scale');
    await seedNovember(other.org.id, { cClassMb: 30 * 1024 });
    await invoicesAt(DECEMBER).closePeriods(DECEMBER);

    const listed = await t.call('GET', `/billing/billing_details/${org.id}/invoices`, { token: owner.token });
    const portal = new URL(listed.json()._links.portal.href);
    const page = await t.call('GET', `${portal.pathname}${portal.search}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;Sons&#34;');
    expect(page.body).not.toContain('<script');
    expect(page.body).toContain('$1,175.00');
    // The other organization's invoice ($1,751.00) is not on this page.
    expect(page.body).not.toContain('$1,751.00');
    expect(page.body).toContain('@media print');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self' http://berth.test;");
    expect(csp).not.toContain('script-src');
  });
});

describe("the billing detail's external_invoice_portal_url", () => {
  it('is the signed portal page for owners and billing owners, null for other members', async () => {
    const { owner, org } = await organizationOn('scale');
    await seedNovember(org.id, { cClassMb: 20 * 1024 });
    await invoicesAt(DECEMBER).closePeriods(DECEMBER);
    const billingOwner = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: billingOwner.id, roleType: 'billing_owner' });
    const member = await t.signUp();
    await addMember(t.db, { organizationId: org.id, userId: member.id });
    const path = `/billing/billing_details/${org.id}`;

    for (const user of [owner, billingOwner]) {
      const detail = await t.call('GET', path, { token: user.token });
      expect(detail.statusCode).toBe(200);
      const url = new URL(detail.json().external_invoice_portal_url);
      expect(url.origin).toBe('http://berth.test');
      expect(url.pathname).toBe(`/billing/invoice_portal/${org.id}`);
      const page = await t.call('GET', `${url.pathname}${url.search}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('$1,175.00');
    }
    const seen = await t.call('GET', path, { token: member.token });
    expect(seen.statusCode).toBe(200);
    expect(seen.json().external_invoice_portal_url).toBeNull();
  });

  it('stops opening the page an hour after it was given', async () => {
    const { owner, org } = await organizationOn('growth');
    const detail = await t.call('GET', `/billing/billing_details/${org.id}`, { token: owner.token });
    const url = new URL(detail.json().external_invoice_portal_url);
    const open = () => t.call('GET', `${url.pathname}${url.search}`);
    expect((await open()).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61 * 60_000 });
    try {
      expect((await open()).statusCode).toBe(404);
    } finally {
      vi.useRealTimers();
    }
  });
});
