import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody } from '../../../../test/fixtures.ts';
import { signIn } from '../../../../test/render.tsx';
import { sessionStore } from '../../../lib/session-store.ts';
import { downloadActivityReport } from './download-activity-report.ts';

const FILE_URL = 'http://berth.test/api/activity_report_files/abc?expires=1';

describe('downloadActivityReport (contract §1.10)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('asks for the short-lived URL with the bearer and follows it as a download link', async () => {
    signIn();
    const clicked: { href: string; download: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const server = mockServer({
      'GET /api/activity_reports/7/download': () =>
        new Response(`${FILE_URL}\n`, { status: 200, headers: { 'Content-Type': 'text/plain' } }),
    });

    await downloadActivityReport('7', 'activity-production.csv');

    expect(clicked).toEqual([{ href: FILE_URL, download: 'activity-production.csv' }]);
    expect(server.calls[0]?.headers.Authorization).toBe(
      `Bearer ${sessionStore.getState().accessToken?.accessToken}`,
    );
  });

  it('ends the session on a 401, as every other GET does (spec 1 §4)', async () => {
    signIn();
    mockServer({
      'GET /api/activity_reports/7/download': () =>
        json(401, errorBody(401, 'invalid_token', 'Token expired')),
    });

    await expect(downloadActivityReport('7', 'activity-production.csv')).rejects.toThrow('Token expired');
    expect(sessionStore.getState()).toMatchObject({ phase: 'anonymous', accessToken: null });
  });
});
