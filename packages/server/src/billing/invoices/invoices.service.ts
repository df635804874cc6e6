import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  INCLUDED_IOPS,
  type InvoiceLine,
  type InvoicePlanTerms,
  type MeteredUsage,
  periodBoundaryAtOrBefore,
  priceInvoice,
} from '@berth/core';
import { and, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { CallerAccess } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import {
  backups,
  disks,
  environments,
  invoices,
  organizations,
  services,
  usageHours,
  vhosts,
} from '../../db/schema.ts';
import { activePlans, plans } from '../../db/tables/plans.ts';
import { forbidden, notFound } from '../../http/errors.ts';

const HOUR_MS = 3_600_000;
/** How long an invoice portal link stays good: the Invoices screen asks for a new one each time it opens. */
const PORTAL_LINK_MS = 60 * 60_000;
/** Organizations priced per plan lookup when a period closes. */
const CLOSE_BATCH = 500;

/** spec 1 §6: invoices are the Account Owner's and the Billing Only Owner's. */
export const INVOICES_DENIED = 'You must be an account owner or billing owner to view invoices.';

/** What one closed period cost an organization, as stored. */
export interface Invoice {
  id: number;
  organizationId: string;
  periodStart: Date;
  periodEnd: Date;
  planName: string;
  discountPercent: number;
  lines: InvoiceLine[];
  planCents: number;
  usageCents: number;
  includedCents: number;
  discountCents: number;
  totalCents: number;
  createdAt: Date;
}

/** The plan terms in force for each organization asked about (the plans module's active plans). */
export type PlanTermsSource = (organizationIds: string[]) => Promise<Map<string, InvoicePlanTerms>>;

/**
 * The plans module's rows as invoice terms: each organization's active plan, or the legacy enterprise
 * plan for one that has none (contract §4.2: what the console assumes then).
 */
export function activePlanTerms(db: Db): PlanTermsSource {
  return async (organizationIds) => {
    const terms = {
      name: plans.name,
      costCents: plans.costCents,
      includedContainerMb: plans.includedContainerMb,
      includedDiskGb: plans.includedDiskGb,
      includedVhosts: plans.includedVhosts,
      discountPercent: plans.discountPercent,
    };
    const [active, [legacy]] = await Promise.all([
      db
        .select({ organizationId: activePlans.organizationId, ...terms })
        .from(activePlans)
        .innerJoin(plans, eq(activePlans.planId, plans.id))
        .where(inArray(activePlans.organizationId, organizationIds)),
      db.select(terms).from(plans).where(eq(plans.name, 'enterprise')),
    ]);
    const byOrganization = new Map<string, InvoicePlanTerms>();
    for (const { organizationId, ...plan } of active) byOrganization.set(organizationId, plan);
    if (legacy) {
      for (const id of organizationIds) if (!byOrganization.has(id)) byOrganization.set(id, legacy);
    }
    return byOrganization;
  };
}

export function invoicePortalKey(serverSecret: Uint8Array): Uint8Array {
  return createHmac('sha256', serverSecret).update('berth invoice portal links').digest();
}

function startOfHour(at: Date): Date {
  return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
}

function toInvoice(row: typeof invoices.$inferSelect): Invoice {
  return { ...row, lines: row.lines as InvoiceLine[] };
}

/**
 * Issue 37: invoices from what organizations really used. A meter samples each organization's running
 * resources once an hour (`usage_hours`); closing a period adds up its hours and prices them with core's
 * `priceInvoice` under the plan in force, one invoice per organization and period. Periods run from the
 * end of the organization's last invoice (or its creation) to a boundary: the start of each calendar
 * month (the periodic job), or the current hour (`npm run admin -- close-period`). Owners and billing
 * owners list them; the printable portal page is read through a signed, time-limited link.
 */
export function createInvoicesService(deps: {
  db: Db;
  planTerms: PlanTermsSource;
  portalKey: Uint8Array;
  now?: () => Date;
}) {
  const { db, planTerms, portalKey } = deps;
  const now = deps.now ?? (() => new Date());

  /**
   * Records the current hour's usage of every organization with something running; an hour already
   * sampled is kept (several workers, or passes within the hour, sample it once). Answers rows written.
   */
  async function meter(at: Date = now()): Promise<number> {
    const hour = startOfHour(at);
    const family = sql<string>`case lower(left(trim(${services.instanceClass}), 1))
      when 'c' then 'c' when 'r' then 'r' else 'm' end`;
    const [containerRows, endpointRows, diskRows, backupRows] = await Promise.all([
      db
        .select({
          organizationId: environments.organizationId,
          family,
          mb: sql<string>`sum(${services.containerCount}::bigint * ${services.containerMemoryLimitMb})`,
        })
        .from(services)
        .innerJoin(environments, eq(services.environmentId, environments.id))
        .groupBy(environments.organizationId, family),
      db
        .select({
          organizationId: environments.organizationId,
          shared: vhosts.shared,
          count: sql<string>`count(*)`,
        })
        .from(vhosts)
        .innerJoin(environments, eq(vhosts.environmentId, environments.id))
        // Endpoints with a load balancer on the runtime cost (as in the cost lists).
        .where(sql`${vhosts.externalHost} is not null`)
        .groupBy(environments.organizationId, vhosts.shared),
      db
        .select({
          organizationId: environments.organizationId,
          gb: sql<string>`sum(${disks.size})`,
          extraIops: sql<string>`sum(greatest(0, ${disks.provisionedIops} - ${INCLUDED_IOPS}))`,
        })
        .from(disks)
        .innerJoin(environments, eq(disks.environmentId, environments.id))
        .groupBy(environments.organizationId),
      db
        .select({
          organizationId: environments.organizationId,
          // Each backup rounded to whole MB once, so the sum is exact on any database.
          mb: sql<string>`sum(round(${backups.sizeGb} * 1024)::bigint)`,
        })
        .from(backups)
        .innerJoin(environments, eq(backups.environmentId, environments.id))
        .groupBy(environments.organizationId),
    ]);
    const rows = new Map<string, typeof usageHours.$inferInsert>();
    const rowOf = (organizationId: string) => {
      let row = rows.get(organizationId);
      if (!row) {
        row = { organizationId, hour };
        rows.set(organizationId, row);
      }
      return row;
    };
    for (const { organizationId, family: letter, mb } of containerRows) {
      const row = rowOf(organizationId);
      const key = letter === 'c' ? 'cClassMb' : letter === 'r' ? 'rClassMb' : 'mClassMb';
      row[key] = Number(mb ?? 0);
    }
    for (const { organizationId, shared, count } of endpointRows) {
      rowOf(organizationId)[shared ? 'sharedEndpoints' : 'endpoints'] = Number(count);
    }
    for (const { organizationId, gb, extraIops } of diskRows) {
      const row = rowOf(organizationId);
      row.diskGb = Number(gb ?? 0);
      row.extraIops = Number(extraIops ?? 0);
    }
    for (const { organizationId, mb } of backupRows) rowOf(organizationId).backupMb = Number(mb ?? 0);
    const values = [...rows.values()];
    let written = 0;
    for (let i = 0; i < values.length; i += 500) {
      const inserted = await db
        .insert(usageHours)
        .values(values.slice(i, i + 500))
        .onConflictDoNothing()
        .returning({ organizationId: usageHours.organizationId });
      written += inserted.length;
    }
    return written;
  }

  /** The sums of an organization's sampled hours in [start, end). */
  async function usageBetween(organizationId: string, start: Date, end: Date): Promise<MeteredUsage> {
    const [row] = await db
      .select({
        m: sql<string>`coalesce(sum(${usageHours.mClassMb}), 0)`,
        c: sql<string>`coalesce(sum(${usageHours.cClassMb}), 0)`,
        r: sql<string>`coalesce(sum(${usageHours.rClassMb}), 0)`,
        endpoints: sql<string>`coalesce(sum(${usageHours.endpoints}), 0)`,
        shared: sql<string>`coalesce(sum(${usageHours.sharedEndpoints}), 0)`,
        disk: sql<string>`coalesce(sum(${usageHours.diskGb}), 0)`,
        iops: sql<string>`coalesce(sum(${usageHours.extraIops}), 0)`,
        backup: sql<string>`coalesce(sum(${usageHours.backupMb}), 0)`,
      })
      .from(usageHours)
      .where(
        and(
          eq(usageHours.organizationId, organizationId),
          gte(usageHours.hour, start),
          lt(usageHours.hour, end),
        ),
      );
    return {
      mClassMbHours: Number(row?.m ?? 0),
      cClassMbHours: Number(row?.c ?? 0),
      rClassMbHours: Number(row?.r ?? 0),
      endpointHours: Number(row?.endpoints ?? 0),
      sharedEndpointHours: Number(row?.shared ?? 0),
      diskGbHours: Number(row?.disk ?? 0),
      extraIopsHours: Number(row?.iops ?? 0),
      backupMbHours: Number(row?.backup ?? 0),
    };
  }

  /**
   * Closes every organization's open period at `end` (on the hour): one invoice each, from the end of its
   * last invoice (or the hour it was created) to `end`. An organization whose period is already closed
   * there is left alone, and racing closers make one invoice (unique organization and period start).
   * Answers the invoices made.
   */
  async function closePeriods(end: Date): Promise<Invoice[]> {
    const boundary = startOfHour(end);
    const lastEnd = sql<Date | string | null>`max(${invoices.periodEnd})`;
    const open = await db
      .select({ id: organizations.id, createdAt: organizations.createdAt, lastEnd })
      .from(organizations)
      .leftJoin(invoices, eq(invoices.organizationId, organizations.id))
      .groupBy(organizations.id)
      .having(sql`coalesce(${lastEnd}, ${organizations.createdAt}) < ${boundary}`);
    const made: Invoice[] = [];
    for (let i = 0; i < open.length; i += CLOSE_BATCH) {
      made.push(...(await closeBatch(open.slice(i, i + CLOSE_BATCH), boundary)));
    }
    return made;
  }

  async function closeBatch(
    open: { id: string; createdAt: Date; lastEnd: Date | string | null }[],
    boundary: Date,
  ): Promise<Invoice[]> {
    const terms = await planTerms(open.map((organization) => organization.id));
    const made: Invoice[] = [];
    for (const organization of open) {
      const start = organization.lastEnd
        ? new Date(organization.lastEnd)
        : startOfHour(organization.createdAt);
      if (start >= boundary) continue;
      const plan = terms.get(organization.id);
      if (!plan) continue;
      const usage = await usageBetween(organization.id, start, boundary);
      const priced = priceInvoice(usage, plan, { start, end: boundary });
      const [row] = await db
        .insert(invoices)
        .values({
          organizationId: organization.id,
          periodStart: start,
          periodEnd: boundary,
          planName: plan.name,
          discountPercent: plan.discountPercent,
          lines: priced.lines,
          planCents: priced.planCents,
          usageCents: priced.usageCents,
          includedCents: priced.includedCents,
          discountCents: priced.discountCents,
          totalCents: priced.totalCents,
        })
        .onConflictDoNothing()
        .returning();
      if (row) made.push(toInvoice(row));
    }
    return made;
  }

  /** The hour this process last sampled: the meter's scans run once an hour, not at every pass. */
  let meteredHour = -1;

  /** The periodic job's pass: this hour's sample, then the periods the last month boundary closed. */
  async function pass(): Promise<{ sampled: number; invoiced: number }> {
    const at = now();
    const hour = startOfHour(at).getTime();
    const sampled = hour === meteredHour ? 0 : await meter(at);
    meteredHour = hour;
    const invoiced = (await closePeriods(periodBoundaryAtOrBefore(at))).length;
    return { sampled, invoiced };
  }

  function assertBillingAccess(caller: CallerAccess, organizationId: string) {
    const roles = caller.memberships.filter((m) => m.organizationId === organizationId);
    // Not a member: the organization is not theirs to know about.
    if (roles.length === 0) throw notFound();
    if (!roles.some((m) => m.roleType === 'owner' || m.roleType === 'billing_owner')) {
      throw forbidden(INVOICES_DENIED);
    }
  }

  async function listFor(organizationId: string): Promise<Invoice[]> {
    const rows = await db
      .select()
      .from(invoices)
      .where(eq(invoices.organizationId, organizationId))
      .orderBy(desc(invoices.periodStart));
    return rows.map(toInvoice);
  }

  function signature(organizationId: string, expires: number): string {
    return createHmac('sha256', portalKey).update(`${organizationId}\0${expires}`).digest('base64url');
  }

  return {
    meter,
    closePeriods,
    pass,
    /** The organization's invoices, newest first: its owners' and billing owners' only. */
    async list(caller: CallerAccess, organizationId: string): Promise<Invoice[]> {
      assertBillingAccess(caller, organizationId);
      return listFor(organizationId);
    },
    /** The query of a portal link for the organization, good for an hour (the caller's access checked). */
    portalQuery(caller: CallerAccess, organizationId: string): { expires: number; signature: string } {
      assertBillingAccess(caller, organizationId);
      const expires = Math.floor((now().getTime() + PORTAL_LINK_MS) / 1000);
      return { expires, signature: signature(organizationId, expires) };
    },
    /** The invoices a portal link shows, or null when the link is forged or has expired. */
    async portal(organizationId: string, expires: number, given: string): Promise<Invoice[] | null> {
      if (!Number.isSafeInteger(expires) || expires * 1000 < now().getTime()) return null;
      const expected = Buffer.from(signature(organizationId, expires));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
      const [organization] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      return organization ? listFor(organizationId) : null;
    },
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
