import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseTarget } from '../../runtimes/runtime.ts';
import { cannotSee, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { createDatabaseProblems } from './database-problem.ts';

// Issue 39: a database whose node is lost answers why it is unavailable, on its own GET only.
const { t, f } = await environmentSuite();
const sim = t.runtimes.sim;
if (!sim) throw new Error('the test server runs no sim runtime');
const asked: DatabaseTarget[] = [];
const lost = (target: DatabaseTarget) =>
  `Node worker-2 is down (heartbeat failure): the data of ${target.handle} is on it; restore a backup to bring it back on another node`;
let id: string;
let pending: string;

beforeAll(async () => {
  const create = async (handle: string) => {
    const created = await t.call('POST', `/api/accounts/${f.environment.id}/databases`, {
      token: f.deployer.token,
      body: { handle, type: 'postgresql', account_id: String(f.environment.id) },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  };
  id = await create('orders-db');
  const op = await t.call('POST', `/api/databases/${id}/operations`, {
    token: f.deployer.token,
    body: { type: 'provision' },
  });
  expect(op.statusCode, op.body).toBe(201);
  await t.worker.drain();
  pending = await create('draft-db');
});

afterEach(() => {
  delete sim.databaseProblem;
  asked.length = 0;
});

describe('GET /databases/:id status_problem', () => {
  it("carries the runtime's sentence when the database's node is lost, to whoever may read it", async () => {
    sim.databaseProblem = async (target) => {
      asked.push(target);
      return lost(target);
    };
    const [answer] = await expectAccess(t, { method: 'GET', url: `/api/databases/${id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(answer?.json()).toMatchObject({
      status: 'provisioned',
      status_problem: lost({ handle: 'orders-db' } as DatabaseTarget),
    });
    // Only the caller who may read it made the runtime be asked, about this database.
    expect(asked.map((target) => [target.id, target.handle, target.stackName])).toEqual([
      [Number(id), 'orders-db', 'shared-us-west-1'],
    ]);
  });

  it('is null when the runtime finds nothing wrong, or cannot tell', async () => {
    const plain = await t.call('GET', `/api/databases/${id}`, { token: f.reader.token });
    expect(plain.json().status_problem).toBeNull();
    sim.databaseProblem = async () => null;
    expect(
      (await t.call('GET', `/api/databases/${id}`, { token: f.reader.token })).json().status_problem,
    ).toBeNull();
  });

  it('does not ask about a database not provisioned yet, nor on lists', async () => {
    sim.databaseProblem = async (target) => {
      asked.push(target);
      return lost(target);
    };
    const draft = await t.call('GET', `/api/databases/${pending}`, { token: f.reader.token });
    expect(draft.json()).toMatchObject({ status: 'pending', status_problem: null });
    const list = (await t.call('GET', '/api/databases', { token: f.reader.token })).json();
    const listed = list._embedded.databases.find((database: { id: string }) => database.id === id);
    expect(listed.handle).toBe('orders-db');
    expect('status_problem' in listed).toBe(false);
    expect(asked).toEqual([]);
  });
});

describe('the database problems service', () => {
  it("gives up after its wait, and keeps the engine's own error for the log", async () => {
    const errors: string[] = [];
    const problems = createDatabaseProblems({
      db: t.db,
      waitMs: 20,
      onEngineError: (databaseId, error) => errors.push(`${databaseId}: ${(error as Error).message}`),
      runtimes: {
        sim: {
          ...sim,
          databaseProblem: () => new Promise((resolve) => setTimeout(() => resolve('late'), 2000)),
        },
      },
    });
    const started = Date.now();
    expect(await problems(Number(id))).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
    const failing = createDatabaseProblems({
      db: t.db,
      onEngineError: (databaseId, error) => errors.push(`${databaseId}: ${(error as Error).message}`),
      runtimes: {
        sim: {
          ...sim,
          databaseProblem: async () => {
            throw new Error('connect ENOENT /run/berth/manager.sock');
          },
        },
      },
    });
    expect(await failing(Number(id))).toBeNull();
    expect(errors).toEqual([`${id}: connect ENOENT /run/berth/manager.sock`]);
    // A database deleted since the page read it: nothing to say, and no error (not a 500).
    expect(await failing(987_654_321)).toBeNull();
    expect(errors).toHaveLength(1);
  });
});
