import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  billingMessages,
  hasBillingAccess,
  INCLUDED_IOPS,
  type InvoiceLine,
  type InvoicePlanTerms,
  type MeteredUsage,
  periodBoundaryAtOrBefore,
  priceInvoice,
} from '@berth/core';
import { and, asc, desc, eq, gt, gte, inArray, lt, sql } from 'drizzle-orm';
import { assertUsable, type CallerAccess } from '../../auth/caller-access.ts';
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
import { loggableError } from '../../http/loggable-error.ts';

const HOUR_MS = 3_600_000;
/** How long an invoice portal link stays good: the Invoices screen asks for a new one each time it opens. */
const PORTAL_LINK_MS = 60 * 60_000;
/** Organizations read, and priced per plan lookup, at a time when periods close. */
const CLOSE_BATCH = 500;

/** spec 1 §6: invoices are the Account Owner's and the Billing Only Owner's. */
export const INVOICES_DENIED = billingMessages.invoicesOwnersOnly;

/** A page of an organization's invoices, and how many it has in all. */
export interface InvoicePage {
  items: Invoice[];
  total: number;
}

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

/** What went wrong, saying where: the cause's message as logs may show it (no query parameters). */
function failure(what: string, cause: unknown): Error {
  return new Error(`${what}: ${loggableError(cause).message}`, { cause });
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
  /** A failed usage sample, or an organization whose period could not be closed (both tried again later). */
  onError?: (error: unknown) => void;
}) {
  const { db, planTerms, portalKey } = deps;
  const now = deps.now ?? (() => new Date());
  const onError = deps.onError ?? (() => {});

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
   * Organizations are read a batch at a time by id; one that fails is reported to `onError` and left open,
   * and costs the others nothing. Answers the invoices made, and how many organizations failed.
   */
  async function closeAll(end: Date): Promise<{ made: Invoice[]; failed: number }> {
    const boundary = startOfHour(end);
    // Each organization's last period end, from the (organization, period_end) index. Written with an
    // alias: in a one-table select the query builder leaves columns unqualified, and "id" would be the
    // invoice's.
    const lastEnd = sql`(select max(latest.period_end) from ${invoices} latest
      where latest.organization_id = ${organizations}.id)`.mapWith(invoices.periodEnd);
    const made: Invoice[] = [];
    let failed = 0;
    let after: string | null = null;
    for (;;) {
      const batch: { id: string; createdAt: Date; lastEnd: Date | null }[] = await db
        .select({ id: organizations.id, createdAt: organizations.createdAt, lastEnd })
        .from(organizations)
        .where(
          and(
            lt(organizations.createdAt, boundary),
            after === null ? undefined : gt(organizations.id, after),
          ),
        )
        .orderBy(asc(organizations.id))
        .limit(CLOSE_BATCH);
      const open = batch.filter((organization) => periodStartOf(organization) < boundary);
      if (open.length > 0) {
        const closed = await closeBatch(open, boundary);
        made.push(...closed.made);
        failed += closed.failed;
      }
      const last = batch.at(-1);
      if (batch.length < CLOSE_BATCH || !last) return { made, failed };
      after = last.id;
    }
  }

  function periodStartOf(organization: { createdAt: Date; lastEnd: Date | null }): Date {
    return organization.lastEnd ?? startOfHour(organization.createdAt);
  }

  async function closeBatch(
    open: { id: string; createdAt: Date; lastEnd: Date | null }[],
    boundary: Date,
  ): Promise<{ made: Invoice[]; failed: number }> {
    const made: Invoice[] = [];
    let terms: Map<string, InvoicePlanTerms>;
    try {
      terms = await planTerms(open.map((organization) => organization.id));
    } catch (error) {
      onError(failure(`Reading the plans of ${open.length} organization(s) to invoice failed`, error));
      return { made, failed: open.length };
    }
    let failed = 0;
    for (const organization of open) {
      const plan = terms.get(organization.id);
      if (!plan) continue;
      try {
        const invoice = await closeOne(organization.id, periodStartOf(organization), boundary, plan);
        if (invoice) made.push(invoice);
      } catch (error) {
        failed++;
        onError(failure(`Invoicing organization ${organization.id} failed`, error));
      }
    }
    return { made, failed };
  }

  /** One organization's invoice for [start, boundary), or null when a racing closer made it first. */
  async function closeOne(
    organizationId: string,
    start: Date,
    boundary: Date,
    plan: InvoicePlanTerms,
  ): Promise<Invoice | null> {
    const usage = await usageBetween(organizationId, start, boundary);
    const priced = priceInvoice(usage, plan, { start, end: boundary });
    const [row] = await db
      .insert(invoices)
      .values({
        organizationId,
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
    return row ? toInvoice(row) : null;
  }

  /** The hour this process last sampled: the meter's scans run once an hour, not at every pass. */
  let meteredHour = -1;
  /** The month boundary this process closed every period at: the next look is at the next boundary. */
  let closedBoundary = -1;

  /**
   * The periodic job's pass: this hour's sample, then the periods the last month boundary closed. Each
   * goes on when the other fails (reported to `onError`, and tried again at the next pass).
   */
  async function pass(): Promise<{ sampled: number; invoiced: number }> {
    const at = now();
    const hour = startOfHour(at).getTime();
    let sampled = 0;
    if (hour !== meteredHour) {
      try {
        sampled = await meter(at);
        meteredHour = hour;
      } catch (error) {
        onError(failure('Sampling usage failed', error));
      }
    }
    const boundary = periodBoundaryAtOrBefore(at);
    if (boundary.getTime() === closedBoundary) return { sampled, invoiced: 0 };
    const { made, failed } = await closeAll(boundary);
    // An organization that failed is tried again at the next pass.
    if (failed === 0) closedBoundary = boundary.getTime();
    return { sampled, invoiced: made.length };
  }

  /**
   * spec 1 §6: invoices are the Account Owner's and the Billing Only Owner's. A stranger gets 404, a token
   * the organization refuses until its user signs in again (SSO) 403, as for the rest of billing.
   */
  function assertBillingAccess(caller: CallerAccess, organizationId: string) {
    assertUsable(caller, organizationId);
    const actor = caller.actors.get(organizationId);
    if (!actor) throw notFound();
    if (!hasBillingAccess(actor)) throw forbidden(INVOICES_DENIED);
  }

  /** The organization's invoices, newest first (`limit` of them from `offset`, or all). */
  async function listFor(
    organizationId: string,
    page?: { limit: number; offset: number },
  ): Promise<Invoice[]> {
    const query = db
      .select()
      .from(invoices)
      .where(eq(invoices.organizationId, organizationId))
      .orderBy(desc(invoices.periodStart))
      .$dynamic();
    const rows = await (page ? query.limit(page.limit).offset(page.offset) : query);
    return rows.map(toInvoice);
  }

  function signature(organizationId: string, expires: number): string {
    return createHmac('sha256', portalKey).update(`${organizationId}\0${expires}`).digest('base64url');
  }

  return {
    meter,
    /** Closes every organization's open period at `end`; answers the invoices made. */
    async closePeriods(end: Date): Promise<Invoice[]> {
      return (await closeAll(end)).made;
    },
    pass,
    /** A page of the organization's invoices, newest first: its owners' and billing owners' only. */
    async list(
      caller: CallerAccess,
      organizationId: string,
      paging: { page: number; perPage: number },
    ): Promise<InvoicePage> {
      assertBillingAccess(caller, organizationId);
      const [items, total] = await Promise.all([
        listFor(organizationId, { limit: paging.perPage, offset: (paging.page - 1) * paging.perPage }),
        db.$count(invoices, eq(invoices.organizationId, organizationId)),
      ]);
      return { items, total };
    },
    /**
     * The query of a portal link for the organization, good for an hour; null unless the caller may read
     * its invoices (the billing detail carries it for them alone).
     */
    portalLink(caller: CallerAccess, organizationId: string): { expires: number; signature: string } | null {
      const actor = caller.actors.get(organizationId);
      if (!actor || !hasBillingAccess(actor)) return null;
      const expires = Math.floor((now().getTime() + PORTAL_LINK_MS) / 1000);
      return { expires, signature: signature(organizationId, expires) };
    },
    /**
     * What a portal link shows: the organization's name and all its invoices, or null when the link is
     * forged, names another organization, or has expired.
     */
    async portal(
      organizationId: string,
      expires: number,
      given: string,
    ): Promise<{ organizationName: string; invoices: Invoice[] } | null> {
      if (!Number.isSafeInteger(expires) || expires * 1000 < now().getTime()) return null;
      const expected = Buffer.from(signature(organizationId, expires));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return null;
      const [organization] = await db
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      if (!organization) return null;
      return { organizationName: organization.name, invoices: await listFor(organizationId) };
    },
  };
}

export type InvoicesService = ReturnType<typeof createInvoicesService>;
