import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testApp } from '../testing/test-app.ts';

// Issue 19: health checks a load balancer or a service manager can ask without a token.

describe('health checks', () => {
  it('answers /healthz and /readyz without authentication, and says which check fails', async () => {
    const t = await testApp({ worker: true });
    afterAll(() => t.close());
    const health = await t.call('GET', '/healthz');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['cache-control']).toBe('no-store');

    const ready = await t.call('GET', '/readyz');
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });

    // The worker this process should run has stopped.
    await t.worker.stop();
    const noWorker = await t.call('GET', '/readyz');
    expect(noWorker.statusCode).toBe(503);
    expect(noWorker.json()).toEqual({ status: 'unavailable', failed: ['worker'] });

    // A migration of this build is missing from the database.
    await t.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    const behind = await t.call('GET', '/readyz');
    expect(behind.json()).toEqual({ status: 'unavailable', failed: ['migrations', 'worker'] });
  });
});
