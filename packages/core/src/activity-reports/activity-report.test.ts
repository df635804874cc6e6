import { describe, expect, it } from 'vitest';
import { toCsv } from '../csv/csv.ts';
import {
  ACTIVITY_REPORT_COLUMNS,
  activityReportFilename,
  activityReportRow,
  lastSevenDays,
  lastWholeWeek,
} from './activity-report.ts';

describe('report windows', () => {
  it.each([
    // A Wednesday: the week before, Monday to Monday.
    ['2026-11-25T10:30:00.000Z', '2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    // Monday at midnight: that week has just begun, so the last whole one ended now.
    ['2026-11-23T00:00:00.000Z', '2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    // Sunday night still belongs to the week that began six days before.
    ['2026-11-29T23:59:59.999Z', '2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'],
    // Across a year's end.
    ['2027-01-01T12:00:00.000Z', '2026-12-21T00:00:00.000Z', '2026-12-28T00:00:00.000Z'],
  ])('the last whole week before %s is %s to %s', (at, startsAt, endsAt) => {
    const window = lastWholeWeek(new Date(at));
    expect(window.startsAt.toISOString()).toBe(startsAt);
    expect(window.endsAt.toISOString()).toBe(endsAt);
  });

  it('an on-demand report covers the 7 days up to the moment it is asked for', () => {
    const window = lastSevenDays(new Date('2026-11-25T10:30:42.123Z'));
    expect(window.endsAt.toISOString()).toBe('2026-11-25T10:30:42.123Z');
    expect(window.startsAt.toISOString()).toBe('2026-11-18T10:30:42.123Z');
  });
});

describe('report files', () => {
  it('names the environment and the days covered', () => {
    const week = lastWholeWeek(new Date('2026-11-25T10:30:00.000Z'));
    expect(activityReportFilename('production', week)).toBe(
      'activity-production-2026-11-16-to-2026-11-22.csv',
    );
    const now = lastSevenDays(new Date('2026-11-25T10:30:42.123Z'));
    expect(activityReportFilename('staging', now)).toBe('activity-staging-2026-11-18-to-2026-11-25.csv');
  });

  it('keeps only file-safe characters of the handle', () => {
    const week = lastWholeWeek(new Date('2026-11-25T10:30:00.000Z'));
    expect(activityReportFilename('../a b/"c"', week)).toBe('activity-..abc-2026-11-16-to-2026-11-22.csv');
    expect(activityReportFilename('///', week)).toBe('activity-environment-2026-11-16-to-2026-11-22.csv');
  });

  it('writes who, what, when and the outcome, with formulas made inert', () => {
    const row = activityReportRow({
      id: 7,
      createdAt: new Date('2026-11-17T09:00:00.000Z'),
      finishedAt: null,
      userName: '=HYPERLINK("http://evil")',
      userEmail: 'ada@example.com',
      automated: false,
      type: 'deploy',
      resourceType: 'app',
      resourceId: 3,
      resourceHandle: '@shop',
      status: 'failed',
      note: '+1, or -1',
    });
    expect(toCsv(ACTIVITY_REPORT_COLUMNS, [row]).split('\r\n')).toEqual([
      'operation_id,requested_at,finished_at,user_name,user_email,automated,type,resource_type,resource_id,resource_handle,status,note',
      `7,2026-11-17T09:00:00.000Z,,"'=HYPERLINK(""http://evil"")",ada@example.com,false,deploy,app,3,'@shop,failed,"'+1, or -1"`,
      '',
    ]);
  });
});
