import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { containers, environments, operations, services, stacks } from '../db/schema.ts';
import type { Runtime } from '../runtimes/runtime.ts';
import { slotsSwarmKeeps } from '../runtimes/swarm/swarm-node-loss.ts';
import type { SwarmTask } from '../runtimes/swarm/swarm-spec.ts';
import { environmentSuite } from '../testing/environment-fixture.ts';
import { seedApp, seedContainer, seedRelease, seedService } from '../testing/factories.ts';
import { createContainerReconciler } from './container-reconciler.ts';
import { createOperationsService } from './operations.service.ts';

// Issue 39: Swarm moving a lost node's task to another node keeps the slot's name (`<service>.<slot>`);
// the reconciler must neither restart the service over it (fighting Swarm) nor change its counts.
const { t, f } = await environmentSuite();
const serviceName = 'production-shop-web';
const ids = { service: 0, stack: '' };
let runtimeName = '';
type Task = SwarmTask & { ServiceID?: string };
let tasks: Task[] = [];

/** The swarm runtime's answer, from the tasks the manager would list (desired state running). */
const swarmDouble = {
  async runningContainers() {
    return slotsSwarmKeeps(
      tasks.filter((task) => task.DesiredState === 'running'),
      new Map([['svc', serviceName]]),
    );
  },
} as unknown as Runtime;

const task = (id: string, slot: number, node: string, desired: string, state: string): Task => ({
  ID: id,
  ServiceID: 'svc',
  Slot: slot,
  NodeID: node,
  DesiredState: desired,
  CreatedAt: '2026-11-30T01:00:00Z',
  Status: { State: state },
});

const reconciler = () =>
  createContainerReconciler({
    db: t.db,
    runtimes: { [runtimeName]: swarmDouble },
    operations: createOperationsService({ db: t.db, logsKey: new Uint8Array(32) }),
  });

const restartsQueued = async () =>
  (await t.db.select().from(operations).where(eq(operations.resourceId, ids.service))).filter(
    (op) => op.resourceType === 'service' && op.type === 'restart',
  ).length;

const recordedCount = async () => {
  const [service] = await t.db.select().from(services).where(eq(services.id, ids.service));
  const rows = await t.db
    .select()
    .from(containers)
    .where(eq(containers.releaseId, service?.currentReleaseId ?? 0));
  return rows.filter((row) => row.deletedAt === null).length;
};

beforeAll(async () => {
  const [environment] = await t.db.select().from(environments).where(eq(environments.id, f.environment.id));
  const [stack] = await t.db
    .select()
    .from(stacks)
    .where(eq(stacks.id, environment?.stackId ?? 0));
  runtimeName = stack?.runtime ?? '';
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  const service = await seedService(t.db, {
    environmentId: f.environment.id,
    appId: app.id,
    handle: 'web',
    containerCount: 3,
  });
  ids.service = service.id;
  const release = await seedRelease(t.db, { serviceId: service.id });
  await t.db.update(services).set({ currentReleaseId: release.id }).where(eq(services.id, service.id));
  for (const slot of [1, 2, 3])
    await seedContainer(t.db, {
      releaseId: release.id,
      dockerName: `${serviceName}.${slot}`,
      host: `n${slot}`,
      status: 'running',
    });
});

describe('the reconciler while Swarm reschedules a lost node’s task', () => {
  it('queues no restart and keeps the counts, before, during and after the move', async () => {
    const before = [task('a', 1, 'n1', 'running', 'running'), task('b', 2, 'n2', 'running', 'running')];
    // Before: all three run.
    tasks = [...before, task('c', 3, 'n3', 'running', 'running')];
    expect(await reconciler().reconcileOnce()).toBe(0);
    // n3 is lost: Swarm shuts its task down and places slot 3 again on n1, pulling its image.
    tasks = [
      ...before,
      task('c', 3, 'n3', 'shutdown', 'running'),
      task('d', 3, 'n1', 'running', 'preparing'),
    ];
    expect(await reconciler().reconcileOnce()).toBe(0);
    // Placed but not yet started, then running: the same slot, the same name.
    tasks = [...before, task('c', 3, 'n3', 'shutdown', 'running'), task('d', 3, 'n1', 'running', 'starting')];
    expect(await reconciler().reconcileOnce()).toBe(0);
    tasks = [...before, task('c', 3, 'n3', 'shutdown', 'running'), task('d', 3, 'n1', 'running', 'running')];
    expect(await reconciler().reconcileOnce()).toBe(0);
    expect(await restartsQueued()).toBe(0);
    expect(await recordedCount()).toBe(3);
  });

  it('still restarts a service whose slot Swarm no longer keeps (its task failed, or the service was cut by hand)', async () => {
    tasks = [task('a', 1, 'n1', 'running', 'running'), task('e', 2, 'n2', 'running', 'failed')];
    expect(await reconciler().reconcileOnce()).toBe(1);
    expect(await restartsQueued()).toBe(1);
    expect(await recordedCount()).toBe(3);
  });
});

describe('a pass over several clusters', () => {
  it('goes on past a cluster that does not answer: the next one is reconciled, the failure told', async () => {
    await t.db.delete(operations).where(eq(operations.resourceId, ids.service));
    // Slot 2's task failed: a restart is due on the cluster that answers.
    tasks = [task('a', 1, 'n1', 'running', 'running'), task('e', 2, 'n2', 'running', 'failed')];
    const errors: unknown[] = [];
    const unreachable = {
      async runningContainers() {
        throw new Error('connect ECONNREFUSED 10.9.1.2:2376');
      },
    } as unknown as Runtime;
    const pass = createContainerReconciler({
      db: t.db,
      // A registered Swarm whose manager is down, listed before the stack's own.
      runtimes: { 'swarm:down': unreachable, [runtimeName]: swarmDouble },
      operations: createOperationsService({ db: t.db, logsKey: new Uint8Array(32) }),
      onError: (error) => errors.push(error),
    });
    expect(await pass.reconcileOnce()).toBe(1);
    expect(await restartsQueued()).toBe(1);
    expect(errors.map((error) => (error as Error).message)).toEqual(['connect ECONNREFUSED 10.9.1.2:2376']);
  });
});
