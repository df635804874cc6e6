import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../db/schema.ts';
import { createSimRuntime } from '../runtimes/sim/sim-runtime.ts';
import { createSecretBox } from '../security/secret-box.ts';
import { ownedApps, startAppOperation } from '../testing/owned-apps.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';
import { createWorker, describeOperationEvent, type OperationEvent } from './worker.ts';

// Issue 35: the worker says, in the server's log, each operation it starts and how and when it ends.

const lines: { level: number; msg: string; operation?: Record<string, unknown> }[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await testApp(
    {},
    { logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } } },
  );
});
afterAll(() => t.close());

const operationLines = (id: number) =>
  lines.filter((line) => line.operation?.id === id).map((line) => line.msg);

describe("the worker's lines", () => {
  it('are one as an operation starts and one as it ends: id, type, resource, outcome and duration', async () => {
    const {
      owner,
      apps: [app, failing],
    } = await ownedApps(t, { environment: 'lines', apps: ['hello', 'bye'] });
    const deployed = await startAppOperation(t, owner, app?.id ?? 0, { type: 'deploy', git_ref: 'main' });
    // The simulated runtime fails a git ref asking for it.
    const broken = await startAppOperation(t, owner, failing?.id ?? 0, {
      type: 'deploy',
      git_ref: 'simfail',
    });
    await t.worker.drain();

    const id = Number(deployed.json().id);
    const [started, ended, ...more] = operationLines(id);
    expect(more).toEqual([]);
    expect(started).toBe(`Operation ${id} (deploy of app hello #${app?.id}) started`);
    expect(ended).toMatch(
      new RegExp(`^Operation ${id} \\(deploy of app hello #${app?.id}\\) succeeded in \\d+\\.\\d s$`),
    );
    expect(lines.find((line) => line.operation?.id === id && line.operation.outcome)).toMatchObject({
      level: 30,
      operation: { id, type: 'deploy', resourceType: 'app', resourceId: app?.id, outcome: 'succeeded' },
    });

    const failedId = Number(broken.json().id);
    expect(operationLines(failedId)).toEqual([
      `Operation ${failedId} (deploy of app bye #${failing?.id}) started`,
      expect.stringMatching(
        new RegExp(
          `^Operation ${failedId} \\(deploy of app bye #${failing?.id}\\) failed in \\d+\\.\\d s: fatal: couldn't find remote ref simfail$`,
        ),
      ),
    ]);
  });

  it('say an operation was handed back when its worker stops in the middle of it', async () => {
    const {
      owner,
      apps: [app],
    } = await ownedApps(t, { environment: 'stopping', apps: ['slow'] });
    const queued = await startAppOperation(t, owner, app?.id ?? 0, { type: 'deploy', git_ref: 'main' });
    const id = Number(queued.json().id);
    const events: OperationEvent[] = [];
    const worker = createWorker({
      db: t.db,
      runtimes: { sim: createSimRuntime({ stepMs: 5000 }) },
      secrets: createSecretBox(new Uint8Array(32), 'tests'),
      onOperation: (event) => events.push(event),
    });
    worker.start();
    const deadline = Date.now() + 20_000;
    while (!events.some((event) => event.id === id) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await worker.stop();
    expect(events.map((event) => [event.id, event.outcome, event.reason])).toEqual([
      [id, undefined, undefined],
      [id, 'handed back', 'the worker is stopping'],
    ]);
    const [row] = await t.db.select().from(operations).where(eq(operations.id, id));
    expect(row?.status).toBe('queued');
  });

  it('keep a reason on one line, and say an operation was handed back', () => {
    expect(
      describeOperationEvent({
        id: 7,
        type: 'restart',
        resourceType: 'database',
        resourceId: 3,
        resourceHandle: 'db',
        outcome: 'failed',
        durationMs: 1250,
        reason: 'first\nsecond',
      }),
    ).toBe('Operation 7 (restart of database db #3) failed in 1.3 s: first second');
    expect(
      describeOperationEvent({
        id: 8,
        type: 'deploy',
        resourceType: 'app',
        resourceId: 4,
        resourceHandle: '',
        outcome: 'handed back',
        durationMs: 40,
        reason: 'the worker is stopping',
      }),
    ).toBe('Operation 8 (deploy of app #4) handed back in 0.0 s: the worker is stopping');
  });
});
