import { describe, expect, it } from 'vitest';
import { cannotSee, environmentSuite, expectAccess, onApp } from '../../testing/environment-fixture.ts';
import { seedApp, seedCodeScanResult, seedOperation } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();

describe('GET /code_scan_results/:id', () => {
  it('reports berth.yml under the console wire names aptible_yml_*', async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
    const scan = await seedOperation(t.db, {
      ...onApp(f, app.id),
      type: 'scan_code',
      status: 'succeeded',
    });
    const result = await seedCodeScanResult(t.db, {
      appId: app.id,
      operationId: scan.id,
      dockerfilePresent: true,
      dockerfileData: 'FROM node:20\n',
      berthYmlPresent: true,
      berthYmlData: 'before_release:\n  - npm run migrate\n',
      languagesDetected: ['javascript'],
    });
    const [response] = await expectAccess(t, { method: 'GET', url: `/api/code_scan_results/${result.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(response?.json()).toEqual({
      id: String(result.id),
      _type: 'code_scan_result',
      dockerfile_present: true,
      procfile_present: false,
      aptible_yml_present: true,
      dockerfile_data: 'FROM node:20\n',
      procfile_data: '',
      aptible_yml_data: 'before_release:\n  - npm run migrate\n',
      languages_detected: ['javascript'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `http://berth.test/api/code_scan_results/${result.id}` },
        app: { href: `http://berth.test/api/apps/${app.id}` },
        operation: { href: `http://berth.test/api/operations/${scan.id}` },
      },
    });
  });
});
