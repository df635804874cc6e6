import {
  ACTIVITY_REPORT_ON_DEMAND_KEPT,
  type ActivityReportCollection,
  type ActivityReportResource,
  activityReportMessages,
  lastSevenDays,
} from '@berth/core';
import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activityReports } from '../../db/schema.ts';
import { cannotSee, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedOperation } from '../../testing/factories.ts';
import { newReport } from './activity-reports.service.ts';

const { t, f } = await environmentSuite();
const listUrl = `/api/accounts/${f.environment.id}/activity_reports`;
const environmentRow = {
  id: f.environment.id,
  organizationId: f.organization.id,
  handle: f.environment.handle,
};

/** Follows a download link as a browser would: the file, without credentials. */
async function fetchLink(link: string) {
  const target = new URL(link);
  return t.app.inject({ method: 'GET', url: `${target.pathname}${target.search}` });
}

describe('activity reports access', () => {
  it('lists with Full Visibility; refuses the rest with the spec text, 404 unseen, 401 anonymous', async () => {
    await expectAccess(t, { method: 'GET', url: listUrl, scope: 'read', environmentId: f.environment.id }, [
      [f.owner, 200],
      [f.viewer, 200],
      [f.reader, 403],
      [f.deployer, 403],
      ...cannotSee(f),
    ]);
    const elsewhere = await t.call('GET', `/api/accounts/${f.strangerEnvironment.id}/activity_reports`, {
      token: f.owner.token,
    });
    expect(elsewhere.statusCode).toBe(404);
  });

  it('asks for a report now with Full Visibility only', async () => {
    await expectAccess(
      t,
      { method: 'POST', url: listUrl, body: {}, scope: 'read', environmentId: f.environment.id },
      [[f.reader, 403], [f.deployer, 403], ...cannotSee(f)],
    );
  });

  it('keeps one report, its link and its file from other organizations and lower scopes', async () => {
    const [report] = await t.db
      .insert(activityReports)
      .values(newReport(environmentRow, lastSevenDays(new Date('2026-01-10T00:00:00Z')), 'weekly'))
      .returning();
    const one = `/api/activity_reports/${report?.id}`;
    await expectAccess(t, { method: 'GET', url: one, scope: 'read', environmentId: f.environment.id }, [
      [f.viewer, 200],
      [f.reader, 403],
      ...cannotSee(f),
    ]);
    await expectAccess(
      t,
      { method: 'GET', url: `${one}/download`, scope: 'read', environmentId: f.environment.id },
      [[f.reader, 403], ...cannotSee(f)],
    );
  });
});

describe('a report asked for now', () => {
  it('covers the last 7 days, is made at once, and downloads as CSV with formulas made inert', async () => {
    const now = Date.now();
    const base = { organizationId: f.organization.id, resourceType: 'app', resourceId: 1 };
    await seedOperation(t.db, {
      ...base,
      environmentId: f.environment.id,
      resourceHandle: 'shop',
      type: 'deploy',
      status: 'succeeded',
      userName: 'Ada Lovelace',
      userEmail: 'ada@example.com',
      createdAt: new Date(now - 2 * 86_400_000),
      finishedAt: new Date(now - 2 * 86_400_000 + 60_000),
    });
    await seedOperation(t.db, {
      ...base,
      environmentId: f.environment.id,
      resourceHandle: '=HYPERLINK("http://evil.example")',
      type: 'restart',
      status: 'failed',
      userName: '@mallory',
      createdAt: new Date(now - 86_400_000),
    });
    // Older than the window, and of another environment: not in this report.
    await seedOperation(t.db, {
      ...base,
      environmentId: f.environment.id,
      resourceHandle: 'too-old',
      type: 'deploy',
      createdAt: new Date(now - 9 * 86_400_000),
    });
    await seedOperation(t.db, {
      organizationId: f.strangerEnvironment.organizationId,
      environmentId: f.strangerEnvironment.id,
      resourceType: 'app',
      resourceId: 2,
      resourceHandle: 'not-theirs',
      type: 'deploy',
    });

    const asked = await t.call('POST', listUrl, { token: f.viewer.token, body: {} });
    expect(asked.statusCode).toBe(201);
    const report: ActivityReportResource = asked.json();
    expect(report).toMatchObject({ _type: 'activity_report', kind: 'on_demand', status: 'pending' });
    expect(Date.parse(report.ends_at) - Date.parse(report.starts_at)).toBe(7 * 86_400_000);
    expect(report.filename).toMatch(/^activity-production-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(report._links).toEqual({
      self: { href: `http://berth.test/api/activity_reports/${report.id}` },
      account: { href: `http://berth.test/api/accounts/${f.environment.id}` },
      download: { href: `http://berth.test/api/activity_reports/${report.id}/download` },
    });
    // Asked again while it is being made: the same report, not another.
    const again = await t.call('POST', listUrl, { token: f.owner.token, body: {} });
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(report.id);

    await t.activityReports.poke();
    // Made, and asked again within the minute: still that one.
    const soon = await t.call('POST', listUrl, { token: f.owner.token, body: {} });
    expect(soon.statusCode).toBe(200);
    expect(soon.json()).toMatchObject({ id: report.id, status: 'ready' });
    const made = (
      await t.call('GET', `/api/activity_reports/${report.id}`, { token: f.viewer.token })
    ).json();
    expect(made).toMatchObject({ status: 'ready', operation_count: 2 });
    expect(made.ready_at).not.toBeNull();

    const pointer = await t.call('GET', `/api/activity_reports/${report.id}/download`, {
      token: f.viewer.token,
    });
    expect(pointer.statusCode).toBe(200);
    expect(pointer.headers['content-type']).toMatch(/^text\/plain/);
    expect(pointer.body).toMatch(
      /^http:\/\/berth\.test\/api\/activity_report_files\/\d+\?expires=\d+&signature=/,
    );
    const file = await fetchLink(pointer.body);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${report.filename}"`);
    const lines = file.body.split('\r\n');
    expect(lines[0]).toBe(
      'operation_id,requested_at,finished_at,user_name,user_email,automated,type,resource_type,resource_id,resource_handle,status,note',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/,Ada Lovelace,ada@example\.com,false,deploy,app,1,shop,succeeded,$/);
    expect(lines[2]).toContain(
      `,'@mallory,,false,restart,app,1,"'=HYPERLINK(""http://evil.example"")",failed,`,
    );
    expect(file.body).not.toContain('too-old');
    expect(file.body).not.toContain('not-theirs');

    // A minute later, a new one.
    await t.db
      .update(activityReports)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(activityReports.id, Number(report.id)));
    const later = await t.call('POST', listUrl, { token: f.owner.token, body: {} });
    expect(later.statusCode).toBe(201);
    expect(later.json().id).not.toBe(report.id);
    await t.activityReports.poke();
  });

  it('holds an operation done the moment before the report was asked for', async () => {
    const [latest] = await t.db
      .select()
      .from(activityReports)
      .where(eq(activityReports.kind, 'on_demand'))
      .orderBy(desc(activityReports.id))
      .limit(1);
    await t.db
      .update(activityReports)
      .set({ createdAt: new Date(Date.now() - 120_000) })
      .where(eq(activityReports.id, latest?.id ?? 0));
    await seedOperation(t.db, {
      organizationId: f.organization.id,
      environmentId: f.environment.id,
      resourceType: 'app',
      resourceId: 1,
      resourceHandle: 'just-now',
      type: 'restart',
    });
    const asked = await t.call('POST', listUrl, { token: f.owner.token, body: {} });
    expect(asked.statusCode).toBe(201);
    await t.activityReports.poke();
    const pointer = await t.call('GET', `/api/activity_reports/${asked.json().id}/download`, {
      token: f.owner.token,
    });
    expect((await fetchLink(pointer.body)).body).toContain('just-now');
  });

  it('answers 409 with the reason while a report is being made', async () => {
    const [pending] = await t.db
      .insert(activityReports)
      .values(newReport(environmentRow, lastSevenDays(new Date('2026-02-01T00:00:00Z')), 'weekly'))
      .returning();
    const response = await t.call('GET', `/api/activity_reports/${pending?.id}/download`, {
      token: f.owner.token,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(activityReportMessages.notReady);
  });

  it('shows a report that could not be made as failed, and answers 409 with the reason for its file', async () => {
    const [failed] = await t.db
      .insert(activityReports)
      .values({
        ...newReport(environmentRow, lastSevenDays(new Date('2026-03-01T00:00:00Z')), 'weekly'),
        status: 'failed',
        attempts: 3,
      })
      .returning();
    const shown = await t.call('GET', `/api/activity_reports/${failed?.id}`, { token: f.viewer.token });
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ status: 'failed', operation_count: 0, ready_at: null });
    const response = await t.call('GET', `/api/activity_reports/${failed?.id}/download`, {
      token: f.viewer.token,
    });
    expect([response.statusCode, response.json().message]).toEqual([409, activityReportMessages.failed]);
    expect(activityReportMessages.failed).toBe(
      'This activity report could not be made. Make a new report, or contact support if it fails again.',
    );
  });

  it('is left to the worker processes by a server that runs no worker (BERTH_WORKER=off)', async () => {
    // The test server runs with worker off, as a web-only process does.
    expect(t.config.worker).toBe(false);
    const webOnly = await t.createEnvironment(f.owner, f.organization.id, 'web-only');
    const asked = await t.call('POST', `/api/accounts/${webOnly.id}/activity_reports`, {
      token: f.owner.token,
      body: {},
    });
    expect(asked.statusCode).toBe(201);
    // Whatever pass this process would have started is over once the scheduler stops.
    await t.activityReports.stop();
    const [waiting] = await t.db
      .select()
      .from(activityReports)
      .where(eq(activityReports.id, Number(asked.json().id)));
    expect(waiting?.status).toBe('pending');
    // A worker's pass makes it.
    await t.activityReports.poke();
    const [made] = await t.db
      .select()
      .from(activityReports)
      .where(eq(activityReports.id, Number(asked.json().id)));
    expect(made?.status).toBe('ready');
  });

  it('refuses a link whose signature, expiry or report was changed', async () => {
    const [ready] = await t.db.select().from(activityReports).where(eq(activityReports.status, 'ready'));
    const [pending] = await t.db.select().from(activityReports).where(eq(activityReports.status, 'pending'));
    const pointer = await t.call('GET', `/api/activity_reports/${ready?.id}/download`, {
      token: f.owner.token,
    });
    const link = new URL(pointer.body);
    const forged = new URL(link);
    forged.searchParams.set('signature', 'x'.repeat(43));
    const later = new URL(link);
    later.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
    const expired = new URL(link);
    expired.searchParams.set('expires', String(Math.floor(Date.now() / 1000) - 1));
    const otherReport = new URL(link);
    otherReport.pathname = `/api/activity_report_files/${pending?.id}`;
    for (const bad of [forged, later, expired, otherReport]) {
      const response = await fetchLink(bad.toString());
      expect(response.statusCode, bad.toString()).toBe(403);
      expect(response.json().message).toBe(activityReportMessages.invalidLink);
    }
  });
});

describe('reports asked for again and again', () => {
  it(`keeps an environment's newest ${ACTIVITY_REPORT_ON_DEMAND_KEPT} on-demand reports, and its weekly ones`, async () => {
    const busy = await t.createEnvironment(f.owner, f.organization.id, 'busy');
    const busyId = Number(busy.id);
    const url = `/api/accounts/${busyId}/activity_reports`;
    const [weekly] = await t.db
      .insert(activityReports)
      .values(
        newReport(
          { id: busyId, organizationId: f.organization.id, handle: 'busy' },
          lastSevenDays(new Date('2026-01-10T00:00:00Z')),
          'weekly',
        ),
      )
      .returning();
    const asked: string[] = [];
    for (let i = 0; i < ACTIVITY_REPORT_ON_DEMAND_KEPT + 3; i += 1) {
      const response = await t.call('POST', url, { token: f.owner.token, body: {} });
      expect(response.statusCode).toBe(201);
      asked.push(response.json().id);
      // Made, and asked for over a minute ago: the next request makes another.
      await t.db
        .update(activityReports)
        .set({ status: 'ready', createdAt: new Date(Date.now() - 120_000) })
        .where(eq(activityReports.id, Number(response.json().id)));
    }
    const left = await t.db
      .select({ id: activityReports.id, kind: activityReports.kind })
      .from(activityReports)
      .where(eq(activityReports.environmentId, busyId));
    const onDemand = left.filter((row) => row.kind === 'on_demand').map((row) => String(row.id));
    expect(onDemand.sort()).toEqual(asked.slice(-ACTIVITY_REPORT_ON_DEMAND_KEPT).sort());
    expect(left.map((row) => row.id)).toContain(weekly?.id);
    // The ones let go are gone for good, their files with them.
    const dropped = await t.call('GET', `/api/activity_reports/${asked[0]}`, { token: f.owner.token });
    expect(dropped.statusCode).toBe(404);
  });
});

describe('the list', () => {
  it('pages at 40 by default, newest first, and follows next links to the end', async () => {
    const start = Date.parse('2025-01-06T00:00:00.000Z');
    const week = 7 * 86_400_000;
    await t.db
      .insert(activityReports)
      .values(
        Array.from({ length: 45 }, (_, i) =>
          newReport(
            environmentRow,
            { startsAt: new Date(start + i * week), endsAt: new Date(start + (i + 1) * week) },
            'weekly',
          ),
        ),
      );
    const total = await t.db.$count(activityReports, eq(activityReports.environmentId, f.environment.id));
    const first: ActivityReportCollection = (await t.call('GET', listUrl, { token: f.owner.token })).json();
    expect(first).toMatchObject({ current_page: 1, per_page: 40, total_count: total });
    expect(first._embedded.activity_reports).toHaveLength(40);
    const ends = first._embedded.activity_reports.map((report) => report.ends_at);
    expect([...ends].sort().reverse()).toEqual(ends);
    const seen = [...first._embedded.activity_reports];
    let next = first._links.next?.href;
    while (next) {
      const page: ActivityReportCollection = (
        await t.call('GET', new URL(next).pathname + new URL(next).search, { token: f.owner.token })
      ).json();
      seen.push(...page._embedded.activity_reports);
      next = page._links.next?.href;
    }
    expect(new Set(seen.map((report) => report.id)).size).toBe(total);
  });
});
