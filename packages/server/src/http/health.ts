import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { migrationsFolder } from '../db/pglite-template.ts';

/** How long the database has to answer a readiness check. */
const DATABASE_TIMEOUT_MS = 2000;

/** The migrations this build carries (drizzle's journal). */
function expectedMigrations(): number {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out')), ms);
    timer.unref();
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * Health checks for load balancers and service managers, without authentication and without detail an
 * outsider could use: `GET /healthz` says the process answers; `GET /readyz` says the database answers,
 * every migration of this build is applied, the worker runs where it should and mail goes out (503
 * naming which check failed, nothing more).
 */
export async function healthRoutes(
  app: FastifyInstance,
  deps: { db: Db; workerExpected: () => boolean; mailFailing?: () => boolean },
) {
  const migrations = expectedMigrations();
  const noStore = { 'cache-control': 'no-store' };

  app.get('/healthz', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers(noStore).send({ status: 'ok' }),
  );

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const failed: string[] = [];
    try {
      const result = await withTimeout(
        deps.db.execute(sql`select count(*)::int as applied from drizzle.__drizzle_migrations`),
        DATABASE_TIMEOUT_MS,
      );
      const rows = (result as unknown as { rows: { applied: number }[] }).rows;
      if ((rows[0]?.applied ?? 0) < migrations) failed.push('migrations');
    } catch {
      failed.push('database');
    }
    if (!deps.workerExpected()) failed.push('worker');
    if (deps.mailFailing?.()) failed.push('mail');
    return reply
      .code(failed.length ? 503 : 200)
      .headers(noStore)
      .send(failed.length ? { status: 'unavailable', failed } : { status: 'ok' });
  });
}
