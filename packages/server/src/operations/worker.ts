import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { environments, stacks } from '../db/schema.ts';
import type { DeliveryTls } from '../drains/log-delivery.ts';
import type { Runtime } from '../runtimes/runtime.ts';
import { RuntimeError } from '../runtimes/runtime.ts';
import type { SecretBox } from '../security/secret-box.ts';
import { handlerFor } from './handlers/registry.ts';
import type { OperationRow } from './operations.hal.ts';
import {
  appendLeasedLog,
  claimNext,
  finish,
  LeaseLost,
  leasedWrite,
  leaseOf,
  logLine,
  recoverExpiredLeases,
  release,
  renewLease,
} from './queue.ts';

export interface WorkerOptions {
  db: Db;
  /** The runtime of a stack, by the stack's runtime name. */
  runtimes: Record<string, Runtime>;
  /** Looks for runtimes added since the start (Swarm clusters registered as stacks) into `runtimes`. */
  lookForRuntimes?: () => Promise<void>;
  /** Seals the secrets operations create (database credentials). */
  secrets: SecretBox;
  /** Certificate authorities log drain destinations may use besides the system's (tests' receivers). */
  drainTls?: DeliveryTls;
  workerId?: string;
  leaseMs?: number;
  pollMs?: number;
  /** The longest one operation may run before it is failed. */
  timeoutMs?: number;
  onError?: (error: unknown) => void;
  /** Told as each operation starts and ends (the process's output: a line each). */
  onOperation?: (event: OperationEvent) => void;
}

/** An operation a worker started, or ended (then with how and after how long). */
export interface OperationEvent {
  id: number;
  type: string;
  resourceType: string;
  resourceId: number;
  resourceHandle: string;
  /** Unset as it starts. Handed back: given up unfinished (the worker stopping, or its lease lost). */
  outcome?: 'succeeded' | 'failed' | 'handed back';
  durationMs?: number;
  /** Why it failed. */
  reason?: string;
}

/** One line for an operation event, e.g. `Operation 42 (deploy of app hello #7) succeeded in 3.2 s`. */
export function describeOperationEvent(event: OperationEvent): string {
  const resource = `${event.resourceType} ${event.resourceHandle ? `${event.resourceHandle} ` : ''}#${event.resourceId}`;
  const what = `Operation ${event.id} (${event.type} of ${resource})`;
  if (!event.outcome) return `${what} started`;
  const took = `${event.outcome} in ${((event.durationMs ?? 0) / 1000).toFixed(1)} s`;
  // One line whatever the reason holds (a runtime's message may span several).
  const reason = event.reason ? `: ${event.reason.slice(0, 500).replace(/\s+/g, ' ')}` : '';
  return `${what} ${took}${reason}`;
}

/**
 * Runs queued operations: claim, run on the stack's runtime while renewing the lease, then end
 * succeeded or failed with the resource changes in the same transaction. Several workers (in this
 * process or others, against one PostgreSQL) share the queue safely.
 */
export function createWorker(options: WorkerOptions) {
  const workerId = options.workerId ?? `worker-${process.pid}-${randomBytes(3).toString('hex')}`;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 500;
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const { db } = options;
  let running = false;
  let loop: Promise<void> | null = null;
  let wake: (() => void) | null = null;
  const current = new AbortController();

  async function runtimeFor(op: OperationRow): Promise<Runtime> {
    if (!op.environmentId) throw new RuntimeError('The operation has no environment');
    const [row] = await db
      .select({ runtime: stacks.runtime })
      .from(environments)
      .innerJoin(stacks, eq(environments.stackId, stacks.id))
      .where(eq(environments.id, op.environmentId));
    let runtime = row ? options.runtimes[row.runtime] : undefined;
    if (!runtime && row && options.lookForRuntimes) {
      // A Swarm cluster registered as a stack since this process last looked (add-stack).
      await options.lookForRuntimes();
      runtime = options.runtimes[row.runtime];
    }
    if (!runtime)
      throw new RuntimeError(`No runtime "${row?.runtime ?? 'unknown'}" is configured for this stack`);
    return runtime;
  }

  /** Runs one claimed operation to its end. */
  async function execute(op: OperationRow): Promise<void> {
    const held = leaseOf(op, workerId);
    // Aborted when the lease is lost (a renewal or a fenced write finds it gone), on shutdown and on
    // timeout: the runtime stops its work at once.
    const lease = new AbortController();
    const stop = () => lease.abort();
    current.signal.addEventListener('abort', stop, { once: true });
    const renewal = setInterval(
      () => {
        renewLease(db, held, leaseMs).then(
          (still) => {
            if (!still) lease.abort();
          },
          () => lease.abort(),
        );
      },
      Math.max(Math.floor(leaseMs / 3), 10),
    );
    // A runtime call that never returns must not hold the operation forever.
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      lease.abort();
    }, timeoutMs);
    // Every write of the run is fenced on the lease; one that finds it gone stops the run.
    const fenced = async <T>(write: () => Promise<T>): Promise<T> => {
      try {
        return await write();
      } catch (error) {
        if (error instanceof LeaseLost) lease.abort();
        throw error;
      }
    };
    const log = (line: string, level: 'INFO' | 'WARN' | 'ERROR' = 'INFO') =>
      fenced(() => appendLeasedLog(db, held, [logLine(level, line)]));
    const write = <T>(change: (tx: Tx) => Promise<T>) => fenced(() => leasedWrite(db, held, change));
    const handler = handlerFor(op.resourceType, op.type);
    const started = Date.now();
    const event = {
      id: op.id,
      type: op.type,
      resourceType: op.resourceType,
      resourceId: op.resourceId,
      resourceHandle: op.resourceHandle,
    };
    const ended = (outcome: NonNullable<OperationEvent['outcome']>, reason?: string) =>
      options.onOperation?.({ ...event, outcome, durationMs: Date.now() - started, reason });
    // Stopped by shutdown: give the operation back at once. Lost lease: another worker owns it now.
    const handBack = async () => {
      if (current.signal.aborted) await release(db, held).catch(() => undefined);
      ended('handed back', current.signal.aborted ? 'the worker is stopping' : 'its lease was lost');
    };
    options.onOperation?.(event);
    try {
      await log(`Starting ${op.resourceType} ${op.type} operation with ID: ${op.id}`);
      if (!handler)
        throw new RuntimeError(`Operation type "${op.type}" is not supported for a ${op.resourceType}`);
      const runtime = await runtimeFor(op);
      const outcome = await handler.run({
        op,
        db,
        runtime,
        log,
        write,
        secrets: options.secrets,
        drainTls: options.drainTls ?? {},
        signal: lease.signal,
      });
      // The work is done: record it unless shutting down (finish itself checks the lease is still ours).
      if (current.signal.aborted) return await handBack();
      await log(`Completed ${op.type} operation with ID: ${op.id}`);
      if (await finish(db, held, 'succeeded', (tx) => outcome.succeed(tx))) ended('succeeded');
      else ended('handed back', 'its lease was lost');
    } catch (error) {
      if (lease.signal.aborted && !timedOut) return await handBack();
      const message = timedOut
        ? `timed out after ${Math.round(timeoutMs / 60_000)} minutes`
        : error instanceof Error
          ? error.message
          : String(error);
      if (!(error instanceof RuntimeError)) options.onError?.(error);
      await log(`Operation ${op.id} failed: ${message}`, 'ERROR').catch(() => undefined);
      const failed = await finish(db, held, 'failed', async (tx) => {
        await handler?.fail?.(tx, op);
      });
      if (failed) ended('failed', message);
      else ended('handed back', 'its lease was lost');
    } finally {
      clearTimeout(deadline);
      clearInterval(renewal);
      current.signal.removeEventListener('abort', stop);
    }
  }

  /** Recovers abandoned operations, then claims and runs at most one. True when it ran one. */
  async function runOnce(): Promise<boolean> {
    await recoverExpiredLeases(db, async (tx, op) => {
      await handlerFor(op.resourceType, op.type)?.fail?.(tx, op);
    });
    const op = await claimNext(db, workerId, leaseMs);
    if (!op) return false;
    await execute(op);
    return true;
  }

  return {
    workerId,
    runOnce,
    /** Runs until the queue is empty (tests and one-shot tools). */
    async drain(): Promise<void> {
      while (await runOnce()) {
        // keep going
      }
    },
    start(): void {
      if (running) return;
      running = true;
      loop = (async () => {
        while (running) {
          let ran = false;
          try {
            ran = await runOnce();
          } catch (error) {
            options.onError?.(error);
          }
          if (!ran && running) {
            await new Promise<void>((resolve) => {
              const timer = setTimeout(resolve, pollMs);
              wake = () => {
                clearTimeout(timer);
                resolve();
              };
            });
            wake = null;
          }
        }
      })();
    },
    /** Whether its loop runs (started and not stopped): what /readyz reports. */
    isRunning(): boolean {
      return running;
    },
    /** Nudges an idle worker to look at the queue now (called right after an enqueue). */
    poke(): void {
      wake?.();
    },
    async stop(): Promise<void> {
      running = false;
      wake?.();
      current.abort();
      await loop;
    },
  };
}
export type Worker = ReturnType<typeof createWorker>;
