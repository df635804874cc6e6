import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { metricDrains } from '../../db/schema.ts';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { duplicateMetricDrain } from './metric-drains.service.ts';

// Metric drains through the API (contract §5.10): create (the Ops scope), list, show with the
// configuration's secrets masked, delete; their delivery is in drains/metric-shipper.test.ts.

const { t, f } = await environmentSuite();
const accountDrains = () => `/api/accounts/${f.environment.id}/metric_drains`;
const datadog = (handle: string) => ({
  handle,
  drain_type: 'datadog',
  drain_configuration: { api_key: 'dd-0123456789', series_url: 'https://api.datadoghq.eu/api/v1/series' },
});

describe('metric drains', () => {
  it('creates one in the contract shape, pending, with the API key masked', async () => {
    const response = await t.call('POST', accountDrains(), {
      token: f.deployer.token,
      body: datadog('to-dd'),
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      _type: 'metric_drain',
      handle: 'to-dd',
      drain_type: 'datadog',
      drain_configuration: { api_key: '••••6789', series_url: 'https://api.datadoghq.eu/api/v1/series' },
      status: 'pending',
      points_sent: 0,
      aggregator_port_mapping: [],
    });
    expect(response.body).not.toContain('dd-0123456789');
    const again = await t.call('POST', accountDrains(), { token: f.deployer.token, body: datadog('to-dd') });
    expect(again.json().message).toBe(duplicateMetricDrain('to-dd'));
  });

  it('needs the Ops scope to create, and shows drains to those who see the environment', async () => {
    await expectAccess(
      t,
      {
        method: 'POST',
        url: accountDrains(),
        body: datadog('denied'),
        scope: 'observability',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
    const [listed] = await expectAccess(t, { method: 'GET', url: accountDrains() }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    const [drain] = listed?.json()._embedded.metric_drains ?? [];
    await expectAccess(t, { method: 'GET', url: `/api/metric_drains/${drain.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    const everywhere = await t.call('GET', '/api/metric_drains', { token: f.stranger.token });
    expect(everywhere.json()._embedded.metric_drains).toEqual([]);
  });

  it('deletes a drain that is not sending, only for the Ops scope; an InfluxDB database must be one', async () => {
    const created = (
      await t.call('POST', accountDrains(), { token: f.deployer.token, body: datadog('gone') })
    ).json();
    await expectAccess(
      t,
      {
        method: 'DELETE',
        url: `/api/metric_drains/${created.id}`,
        scope: 'observability',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
    await t.db
      .update(metricDrains)
      .set({ status: 'provisioned' })
      .where(eq(metricDrains.id, Number(created.id)));
    const refused = await t.call('DELETE', `/api/metric_drains/${created.id}`, { token: f.deployer.token });
    expect(refused.json().message).toBe('Deprovision the metric drain before deleting it');
    await t.db
      .update(metricDrains)
      .set({ status: 'pending' })
      .where(eq(metricDrains.id, Number(created.id)));
    expect(
      (await t.call('DELETE', `/api/metric_drains/${created.id}`, { token: f.deployer.token })).statusCode,
    ).toBe(204);
    const notInflux = await t.call('POST', accountDrains(), {
      token: f.deployer.token,
      body: { handle: 'influx-db', drain_type: 'influxdb_database', database_id: '999999' },
    });
    expect(notInflux.json().message).toBe('Must provide an InfluxDB database');
  });
});
