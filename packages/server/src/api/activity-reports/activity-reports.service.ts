import { createHmac } from 'node:crypto';
import {
  ACTIVITY_REPORT_COLUMNS,
  type ActivityReportKind,
  activityReportFilename,
  activityReportMessages,
  activityReportRow,
  lastSevenDays,
  type ReportWindow,
  toCsv,
} from '@berth/core';
import { and, asc, desc, eq, gt, gte, lt, or, sql } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import { sameSecret } from '../../auth/tokens/token.service.ts';
import type { Db } from '../../db/client.ts';
import { activityReportFiles, activityReports, environments, operations } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { ApiError } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { createAccess } from '../access/access.ts';

export type ActivityReportRow = typeof activityReports.$inferSelect;

/** Operations read per query while a report is made: its work grows in steps, never as one huge answer. */
const OPERATIONS_BATCH = 1000;
/** How long a download link lives (contract §1.10: time-limited). */
const LINK_TTL_SECONDS = 600;

/** The key report links are signed with, derived from the server secret (the same in every process). */
export function activityReportLinksKey(serverSecret: Uint8Array): Uint8Array {
  return createHmac('sha256', serverSecret).update('berth activity report links').digest();
}

/** The report row of one environment and window, ready to insert. */
export function newReport(
  environment: { id: number; organizationId: string; handle: string },
  window: ReportWindow,
  kind: ActivityReportKind,
  requestedById: string | null = null,
) {
  return {
    organizationId: environment.organizationId,
    environmentId: environment.id,
    startsAt: window.startsAt,
    endsAt: window.endsAt,
    filename: activityReportFilename(environment.handle, window),
    kind,
    requestedById,
  };
}

/**
 * Activity reports (contract §5.6): an environment's operations of a window, as CSV. They are made
 * `pending` (weekly by the scheduler, or on demand here) and `build` writes their file.
 */
export function createActivityReportsService(deps: {
  db: Db;
  linksKey: Uint8Array;
  /** Told when a report is asked for, so it is made now rather than at the scheduler's next pass. */
  onRequested?: () => void;
}) {
  const { db } = deps;
  const access = createAccess(db);

  function sign(reportId: number, expires: number): string {
    return createHmac('sha256', deps.linksKey)
      .update(`activity-report:${reportId}:${expires}`)
      .digest('base64url');
  }

  async function reportRow(id: number | null): Promise<ActivityReportRow | undefined> {
    if (id === null) return undefined;
    const [row] = await db.select().from(activityReports).where(eq(activityReports.id, id));
    return row;
  }

  /** The report's CSV, its operations read in batches by their creation order. */
  async function csvOf(report: ActivityReportRow): Promise<{ csv: string; count: number }> {
    const rows: ReturnType<typeof activityReportRow>[] = [];
    let after: { createdAt: Date; id: number } | null = null;
    for (;;) {
      const batch: (typeof operations.$inferSelect)[] = await db
        .select()
        .from(operations)
        .where(
          and(
            eq(operations.environmentId, report.environmentId),
            gte(operations.createdAt, report.startsAt),
            lt(operations.createdAt, report.endsAt),
            after
              ? or(
                  gt(operations.createdAt, after.createdAt),
                  and(eq(operations.createdAt, after.createdAt), gt(operations.id, after.id)),
                )
              : undefined,
          ),
        )
        .orderBy(asc(operations.createdAt), asc(operations.id))
        .limit(OPERATIONS_BATCH);
      for (const operation of batch) rows.push(activityReportRow(operation));
      const last = batch[batch.length - 1];
      if (!last || batch.length < OPERATIONS_BATCH) break;
      after = { createdAt: last.createdAt, id: last.id };
    }
    return { csv: toCsv(ACTIVITY_REPORT_COLUMNS, rows), count: rows.length };
  }

  return {
    /** An environment's reports, newest first (spec 3 §9: server-paged lists default to 40 a page). */
    async list(
      ref: CallerRef,
      environmentId: number | null,
      paging: Paging,
    ): Promise<Page<ActivityReportRow>> {
      const environment = await access.environment(
        await access.caller(ref),
        environmentId,
        'activity_report.read',
      );
      return selectPage(db, activityReports, {
        where: eq(activityReports.environmentId, environment.id),
        orderBy: [desc(activityReports.endsAt), desc(activityReports.id)],
        paging,
      });
    },

    async get(ref: CallerRef, id: number | null): Promise<ActivityReportRow> {
      const report = await reportRow(id);
      const caller = await access.caller(ref);
      return (await access.resource(caller, report, 'activity_report.read', 'Activity report')).row;
    },

    /**
     * A report of the last 7 days, asked for now. Asked again within a minute of the last one, or while
     * one is being made, it answers that report (`created` false) instead of making another: a double
     * click, or a member pressing the button over and over, makes one report.
     */
    async request(
      ref: CallerRef,
      environmentId: number | null,
      now = new Date(),
    ): Promise<{ report: ActivityReportRow; created: boolean }> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'activity_report.create');
      const onDemand = and(
        eq(activityReports.environmentId, environment.id),
        eq(activityReports.kind, 'on_demand'),
      );
      // The newest on-demand report (its end is when it was asked for), and whether it was asked for
      // within the last minute by the database's clock, the one created_at is written with.
      const latest = async () => {
        const [row] = await db
          .select({
            report: activityReports,
            recent: sql<boolean>`${activityReports.createdAt} > now() - interval '1 minute'`,
          })
          .from(activityReports)
          .where(onDemand)
          .orderBy(desc(activityReports.endsAt), desc(activityReports.id))
          .limit(1);
        return row;
      };
      const last = await latest();
      if (last && (last.recent || last.report.status === 'pending')) {
        return { report: last.report, created: false };
      }
      const [made] = await db
        .insert(activityReports)
        .values(newReport(environment, lastSevenDays(now), 'on_demand', caller.user.id))
        .onConflictDoNothing()
        .returning();
      if (made) {
        deps.onRequested?.();
        return { report: made, created: true };
      }
      // Another request made one at this very moment: that one.
      const other = await latest();
      if (!other) throw new Error('Activity report conflict without a report');
      return { report: other.report, created: false };
    },

    /** The path of a ready report's time-limited download link (contract §1.10); 409 while it is made. */
    async downloadPath(ref: CallerRef, id: number | null): Promise<string> {
      const report = await reportRow(id);
      const caller = await access.caller(ref);
      const { row } = await access.resource(caller, report, 'activity_report.read', 'Activity report');
      if (row.status !== 'ready') throw new ApiError(409, 'not_ready', activityReportMessages.notReady);
      const expires = Math.floor(Date.now() / 1000) + LINK_TTL_SECONDS;
      return `/activity_report_files/${row.id}?expires=${expires}&signature=${sign(row.id, expires)}`;
    },

    /** The file behind a signed link, or null when the link is not valid (forged, expired, report gone). */
    async file(id: number | null, expires: number, signature: string) {
      if (id === null || !Number.isFinite(expires) || expires < Math.floor(Date.now() / 1000)) return null;
      if (!sameSecret(sign(id, expires), signature)) return null;
      const [found] = await db
        .select({ filename: activityReports.filename, csv: activityReportFiles.csv })
        .from(activityReportFiles)
        .innerJoin(activityReports, eq(activityReports.id, activityReportFiles.reportId))
        .where(eq(activityReportFiles.reportId, id));
      return found ?? null;
    },

    /**
     * Makes a pending report's file. The file is read outside any transaction (a large environment's
     * week takes a moment, which must not hold the embedded database's one connection); the report turns
     * ready in a short one, once: a report another process finished meanwhile is left as it is.
     */
    async build(report: ActivityReportRow): Promise<boolean> {
      const { csv, count } = await csvOf(report);
      return db.transaction(async (tx) => {
        const [claimed] = await tx
          .select({ id: activityReports.id })
          .from(activityReports)
          .where(and(eq(activityReports.id, report.id), eq(activityReports.status, 'pending')))
          .for('update', { skipLocked: true });
        if (!claimed) return false;
        await tx.insert(activityReportFiles).values({ reportId: report.id, csv }).onConflictDoNothing();
        const now = new Date();
        await tx
          .update(activityReports)
          .set({ status: 'ready', operationCount: count, readyAt: now, updatedAt: now })
          .where(eq(activityReports.id, report.id));
        return true;
      });
    },

    /**
     * The next pending reports, at most one per organization (the oldest of each): a tenant with many
     * environments waits its turn like the others, never ahead of them.
     */
    async nextPending(limit: number): Promise<ActivityReportRow[]> {
      const turns = db
        .selectDistinctOn([activityReports.organizationId], { id: activityReports.id })
        .from(activityReports)
        .where(eq(activityReports.status, 'pending'))
        .orderBy(activityReports.organizationId, activityReports.id)
        .limit(limit);
      return db
        .select()
        .from(activityReports)
        .where(sql`${activityReports.id} in ${turns}`)
        .orderBy(activityReports.id);
    },

    /** Environments of the batch after `afterId` that existed before `before`, without a report of `window`. */
    async environmentsWithoutReport(window: ReportWindow, afterId: number, limit: number) {
      return db
        .select({
          id: environments.id,
          organizationId: environments.organizationId,
          handle: environments.handle,
        })
        .from(environments)
        .where(
          and(
            gt(environments.id, afterId),
            lt(environments.createdAt, window.endsAt),
            sql`not exists (select 1 from ${activityReports} where ${activityReports.environmentId} = ${environments.id}
              and ${activityReports.startsAt} = ${window.startsAt} and ${activityReports.endsAt} = ${window.endsAt})`,
          ),
        )
        .orderBy(environments.id)
        .limit(limit);
    },

    /** Inserts pending reports; one that already exists (another process made it) is left alone. */
    async insertPending(rows: ReturnType<typeof newReport>[]): Promise<number> {
      if (rows.length === 0) return 0;
      const made = await db
        .insert(activityReports)
        .values(rows)
        .onConflictDoNothing()
        .returning({ id: activityReports.id });
      return made.length;
    },
  };
}
export type ActivityReportsService = ReturnType<typeof createActivityReportsService>;
