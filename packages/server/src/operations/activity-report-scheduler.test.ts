import {
  ACTIVITY_REPORT_COLUMNS,
  activityReportMessages,
  csvCell,
  lastWholeWeek,
  type ReportWindow,
  toCsv,
} from '@berth/core';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTIVITY_REPORT_MAX_ATTEMPTS,
  type ActivityReportRow,
  activityReportLinksKey,
  createActivityReportsService,
  newReport,
} from '../api/activity-reports/activity-reports.service.ts';
import { activityReportFiles, activityReports, environments } from '../db/schema.ts';
import { seedOperation } from '../testing/factories.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { createActivityReportScheduler } from './activity-report-scheduler.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

const DAY = 86_400_000;

/** A scheduler whose clock stands `days` after now, over the server's own report service. */
function schedulerAt(days: number, spy?: (report: ActivityReportRow) => void) {
  const reports = createActivityReportsService({
    db: t.db,
    linksKey: activityReportLinksKey(new Uint8Array(32)),
  });
  const now = () => new Date(Date.now() + days * DAY);
  return {
    week: lastWholeWeek(now()),
    scheduler: createActivityReportScheduler({
      reports: {
        ...reports,
        build: (report) => {
          spy?.(report);
          return reports.build(report);
        },
      },
      now,
      onError: (error) => {
        throw error;
      },
    }),
  };
}

async function organizationWith(handles: string[]) {
  const owner = await t.signUp();
  const organization = await t.createOrganization(owner, `Org ${handles[0]}`);
  const made = [];
  for (const handle of handles) made.push(await t.createEnvironment(owner, organization.id, handle));
  return { organization, environments: made.map((environment) => Number(environment.id)) };
}

describe('weekly activity reports', () => {
  it("makes each environment's report of the last whole week once, with that week's operations", async () => {
    const {
      organization,
      environments: [environmentId],
    } = await organizationWith(['weekly-a']);
    const { week, scheduler } = schedulerAt(14);
    // One operation in the week, one just after it.
    await seedOperation(t.db, {
      organizationId: organization.id,
      environmentId,
      resourceType: 'app',
      resourceId: 1,
      resourceHandle: 'in-week',
      type: 'deploy',
      createdAt: new Date(week.endsAt.getTime() - 1000),
    });
    await seedOperation(t.db, {
      organizationId: organization.id,
      environmentId,
      resourceType: 'app',
      resourceId: 1,
      resourceHandle: 'next-week',
      type: 'deploy',
      createdAt: week.endsAt,
    });
    const first = await scheduler.runOnce();
    expect(first.scheduled).toBeGreaterThanOrEqual(1);
    // Again, and two processes at once: still one report per environment and week.
    const [second, third] = await Promise.all([scheduler.runOnce(), schedulerAt(14).scheduler.runOnce()]);
    expect(second.scheduled + third.scheduled).toBe(0);
    const reports = await t.db
      .select()
      .from(activityReports)
      .where(eq(activityReports.environmentId, environmentId ?? 0));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      kind: 'weekly',
      status: 'ready',
      operationCount: 1,
      startsAt: week.startsAt,
      endsAt: week.endsAt,
    });
    const [file] = await t.db
      .select()
      .from(activityReportFiles)
      .where(eq(activityReportFiles.reportId, reports[0]?.id ?? 0));
    expect(file?.csv).toContain('in-week');
    expect(file?.csv).not.toContain('next-week');
  });

  it('makes no report of a week before the environment existed', async () => {
    const {
      environments: [environmentId],
    } = await organizationWith(['brand-new']);
    // The last whole week before today ended before this environment was made.
    await schedulerAt(0).scheduler.runOnce();
    const reports = await t.db
      .select()
      .from(activityReports)
      .where(eq(activityReports.environmentId, environmentId ?? 0));
    expect(reports).toEqual([]);
  });

  it("makes one organization's report in the first round however many another has waiting", async () => {
    const busy = await organizationWith(['busy-1', 'busy-2', 'busy-3', 'busy-4']);
    const quiet = await organizationWith(['quiet-1']);
    // The busy organization's reports are older, so they would all come first in plain order.
    const order: string[] = [];
    const { scheduler } = schedulerAt(21, (report) => order.push(report.organizationId));
    await scheduler.runOnce();
    const ours = order.filter((id) => id === busy.organization.id || id === quiet.organization.id);
    expect(ours).toHaveLength(5);
    expect(ours.indexOf(quiet.organization.id)).toBeLessThanOrEqual(1);
    const pending = await t.db
      .select()
      .from(activityReports)
      .where(
        and(eq(activityReports.status, 'pending'), eq(activityReports.organizationId, busy.organization.id)),
      );
    expect(pending).toEqual([]);
  });

  it('goes on past a report that cannot be made, and tries it again next pass', async () => {
    const {
      environments: [environmentId],
    } = await organizationWith(['doomed']);
    const errors: unknown[] = [];
    const reports = createActivityReportsService({
      db: t.db,
      linksKey: activityReportLinksKey(new Uint8Array(32)),
    });
    let failing = true;
    const scheduler = createActivityReportScheduler({
      reports: {
        ...reports,
        build: async (report) => {
          if (failing && report.environmentId === environmentId) throw new Error('disk full');
          return reports.build(report);
        },
      },
      now: () => new Date(Date.now() + 28 * DAY),
      onError: (error) => errors.push(error),
    });
    await scheduler.runOnce();
    expect(errors.map((error) => (error as Error).message)).toContain('disk full');
    const [stuck] = await t.db
      .select()
      .from(activityReports)
      .where(eq(activityReports.environmentId, environmentId ?? 0));
    expect(stuck?.status).toBe('pending');
    failing = false;
    await scheduler.runOnce();
    const [made] = await t.db
      .select()
      .from(activityReports)
      .where(eq(activityReports.environmentId, environmentId ?? 0));
    expect(made?.status).toBe('ready');
    // The environment row itself is untouched by all this.
    expect(await t.db.$count(environments, eq(environments.id, environmentId ?? 0))).toBe(1);
  });
});

describe('a report that keeps failing', () => {
  it(`is tried once a pass, marked failed after ${ACTIVITY_REPORT_MAX_ATTEMPTS} tries, and holds up none of its organization's others`, async () => {
    const {
      environments: [doomedId, nextId],
    } = await organizationWith(['stuck-1', 'stuck-2']);
    const reports = createActivityReportsService({
      db: t.db,
      linksKey: activityReportLinksKey(new Uint8Array(32)),
    });
    const tried: number[] = [];
    const scheduler = createActivityReportScheduler({
      reports: {
        ...reports,
        build: async (report) => {
          if (report.environmentId !== doomedId) return reports.build(report);
          tried.push(report.id);
          throw new Error('cannot write');
        },
      },
      now: () => new Date(Date.now() + 35 * DAY),
      onError: () => undefined,
    });
    const statusOf = async (environmentId: number | undefined) =>
      (
        await t.db
          .select()
          .from(activityReports)
          .where(eq(activityReports.environmentId, environmentId ?? 0))
      )[0];

    await scheduler.runOnce();
    // Its organization's next report was made in the same pass, behind the failing one.
    expect((await statusOf(nextId))?.status).toBe('ready');
    expect(await statusOf(doomedId)).toMatchObject({ status: 'pending', attempts: 1 });
    expect(tried).toHaveLength(1);
    for (let pass = 1; pass < ACTIVITY_REPORT_MAX_ATTEMPTS; pass++) await scheduler.runOnce();
    expect(await statusOf(doomedId)).toMatchObject({
      status: 'failed',
      attempts: ACTIVITY_REPORT_MAX_ATTEMPTS,
    });
    // Failed: no longer picked.
    await scheduler.runOnce();
    expect(tried).toHaveLength(ACTIVITY_REPORT_MAX_ATTEMPTS);
  });
});

describe('a report of a busy environment', () => {
  async function reportOf(
    environmentId: number,
    organizationId: string,
    window: ReportWindow,
    limits: { rows: number; bytes: number },
  ) {
    const reports = createActivityReportsService({
      db: t.db,
      linksKey: activityReportLinksKey(new Uint8Array(32)),
      limits,
    });
    const [row] = await t.db
      .insert(activityReports)
      .values(newReport({ id: environmentId, organizationId, handle: 'busy' }, window, 'on_demand'))
      .returning();
    if (!row) throw new Error('no report');
    expect(await reports.build(row)).toBe(true);
    const [file] = await t.db
      .select()
      .from(activityReportFiles)
      .where(eq(activityReportFiles.reportId, row.id));
    const [made] = await t.db.select().from(activityReports).where(eq(activityReports.id, row.id));
    return { csv: file?.csv ?? '', count: made?.operationCount };
  }

  it('stops at its row or byte limit, and says so on its last line', async () => {
    const {
      organization,
      environments: [environmentId = 0],
    } = await organizationWith(['capped']);
    const start = Date.now() - 10 * DAY;
    for (let index = 0; index < 5; index++) {
      await seedOperation(t.db, {
        organizationId: organization.id,
        environmentId,
        resourceType: 'app',
        resourceId: 1,
        resourceHandle: `op-${index}`,
        type: 'deploy',
        createdAt: new Date(start + index * 1000),
      });
    }
    const window = (offset: number) => ({
      startsAt: new Date(start - DAY - offset),
      endsAt: new Date(start + DAY),
    });
    const whole = await reportOf(environmentId, organization.id, window(0), { rows: 100, bytes: 1_000_000 });
    const lines = whole.csv.split('\r\n');
    expect(whole.count).toBe(5);
    expect(lines).toHaveLength(7);
    expect(whole.csv.startsWith(toCsv(ACTIVITY_REPORT_COLUMNS, []))).toBe(true);

    const byRows = await reportOf(environmentId, organization.id, window(1), { rows: 3, bytes: 1_000_000 });
    const thirdAt = new Date(start + 2000).toISOString();
    expect(byRows.count).toBe(3);
    expect(byRows.csv).toBe(
      `${lines.slice(0, 4).join('\r\n')}\r\n${csvCell(activityReportMessages.cut(3, thirdAt))}\r\n`,
    );
    expect(activityReportMessages.cut(3, thirdAt)).toBe(
      `This report was cut at its limit (100,000 operations or 32 MB): it lists the first 3, up to ${thirdAt}; the later ones are not listed.`,
    );

    // Two whole lines fit under the byte limit, the third would not.
    const twoLines = Buffer.byteLength(`${lines.slice(0, 3).join('\r\n')}\r\n`);
    const byBytes = await reportOf(environmentId, organization.id, window(2), {
      rows: 100,
      bytes: twoLines + 5,
    });
    expect(byBytes.count).toBe(2);
    expect(byBytes.csv.split('\r\n').slice(0, 3)).toEqual(lines.slice(0, 3));
    expect(byBytes.csv).toContain(activityReportMessages.cut(2, new Date(start + 1000).toISOString()));
  });

  it('keeps the file of a report whose id is past the 32-bit range', async () => {
    const {
      organization,
      environments: [environmentId = 0],
    } = await organizationWith(['big-ids']);
    const [row] = await t.db
      .insert(activityReports)
      .values({
        id: 3_000_000_000,
        ...newReport(
          { id: environmentId, organizationId: organization.id, handle: 'big-ids' },
          lastWholeWeek(new Date()),
          'weekly',
        ),
      })
      .returning();
    await t.db.insert(activityReportFiles).values({ reportId: row?.id ?? 0, csv: 'operation_id\r\n' });
    const [file] = await t.db
      .select()
      .from(activityReportFiles)
      .where(eq(activityReportFiles.reportId, 3_000_000_000));
    expect(file?.csv).toBe('operation_id\r\n');
  });
});
