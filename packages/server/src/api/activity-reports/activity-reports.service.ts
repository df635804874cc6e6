import { createHmac } from 'node:crypto';
import {
  ACTIVITY_REPORT_COLUMNS,
  ACTIVITY_REPORT_MAX_BYTES,
  ACTIVITY_REPORT_MAX_ROWS,
  ACTIVITY_REPORT_ON_DEMAND_KEPT,
  type ActivityReportKind,
  activityReportFilename,
  activityReportMessages,
  activityReportRow,
  csvCell,
  lastSevenDays,
  type ReportedOperation,
  type ReportWindow,
} from '@berth/core';
import { and, asc, desc, eq, gt, gte, lt, notInArray, or, sql } from 'drizzle-orm';
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
/** Tries at making a report's file before it is marked `failed` and its organization's next one goes. */
export const ACTIVITY_REPORT_MAX_ATTEMPTS = 3;
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
  /** A report's bounds (core's ACTIVITY_REPORT_MAX_ROWS and _BYTES unless a test sets smaller ones). */
  limits?: { rows: number; bytes: number };
}) {
  const { db } = deps;
  const limits = deps.limits ?? { rows: ACTIVITY_REPORT_MAX_ROWS, bytes: ACTIVITY_REPORT_MAX_BYTES };
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

  /** One CSV line of cells, as the report's file holds it. */
  const csvLine = (cells: readonly (string | boolean)[]) => `${cells.map(csvCell).join(',')}\r\n`;

  /**
   * The report's CSV, its operations read in pages by their creation order (the operations_env_created
   * index) and written line by line, so only the file itself is held: at most `limits.rows` operations
   * and `limits.bytes` bytes, then a last line saying where it was cut.
   */
  async function csvOf(report: ActivityReportRow): Promise<{ csv: string; count: number }> {
    const lines = [csvLine(ACTIVITY_REPORT_COLUMNS)];
    let bytes = Buffer.byteLength(lines[0] ?? '');
    let count = 0;
    let after: { createdAt: Date; id: number } | null = null;
    for (;;) {
      // Typed here: the query reads `after`, which the loop sets from its rows.
      const batch: (ReportedOperation & { id: number })[] = await db
        .select({
          id: operations.id,
          createdAt: operations.createdAt,
          finishedAt: operations.finishedAt,
          userName: operations.userName,
          userEmail: operations.userEmail,
          automated: operations.automated,
          type: operations.type,
          resourceType: operations.resourceType,
          resourceId: operations.resourceId,
          resourceHandle: operations.resourceHandle,
          status: operations.status,
          note: operations.note,
        })
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
      for (const operation of batch) {
        const line = csvLine(activityReportRow(operation));
        const size = Buffer.byteLength(line);
        if (count >= limits.rows || bytes + size > limits.bytes) {
          const lastListedAt = after?.createdAt.toISOString() ?? report.startsAt.toISOString();
          lines.push(csvLine([activityReportMessages.cut(count, lastListedAt)]));
          return { csv: lines.join(''), count };
        }
        lines.push(line);
        bytes += size;
        count++;
        after = { createdAt: operation.createdAt, id: operation.id };
      }
      if (batch.length < OPERATIONS_BATCH) return { csv: lines.join(''), count };
    }
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
        // Only the newest on-demand reports stay (their files go with them by cascade): asked for once a
        // minute, each up to ACTIVITY_REPORT_MAX_BYTES, they would otherwise fill the database.
        const kept = db
          .select({ id: activityReports.id })
          .from(activityReports)
          .where(onDemand)
          .orderBy(desc(activityReports.endsAt), desc(activityReports.id))
          .limit(ACTIVITY_REPORT_ON_DEMAND_KEPT);
        await db.delete(activityReports).where(and(onDemand, notInArray(activityReports.id, kept)));
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
      if (row.status === 'failed') throw new ApiError(409, 'report_failed', activityReportMessages.failed);
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
     * Counts a failed try at making a pending report; the ACTIVITY_REPORT_MAX_ATTEMPTS-th marks it
     * `failed`, so it is no longer its organization's next report and the others get their turn.
     */
    async recordFailure(report: ActivityReportRow): Promise<void> {
      const tried = sql`${activityReports.attempts} + 1`;
      await db
        .update(activityReports)
        .set({
          attempts: tried,
          status: sql`case when ${tried} >= ${ACTIVITY_REPORT_MAX_ATTEMPTS} then 'failed' else ${activityReports.status} end`,
          updatedAt: new Date(),
        })
        .where(and(eq(activityReports.id, report.id), eq(activityReports.status, 'pending')));
    },

    /**
     * The next pending reports, at most one per organization (the oldest of each, but for those in
     * `skip`): a tenant with many environments waits its turn like the others, never ahead of them.
     */
    async nextPending(limit: number, skip: readonly number[] = []): Promise<ActivityReportRow[]> {
      const turns = db
        .selectDistinctOn([activityReports.organizationId], { id: activityReports.id })
        .from(activityReports)
        .where(
          and(
            eq(activityReports.status, 'pending'),
            skip.length ? notInArray(activityReports.id, [...skip]) : undefined,
          ),
        )
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
