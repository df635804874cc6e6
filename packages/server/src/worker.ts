import { ensureDefaultStack } from './api/stacks/stacks.service.ts';
import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/client.ts';
import { loggableError } from './http/loggable-error.ts';
import { createWorker } from './operations/worker.ts';
import { createSimRuntime } from './runtimes/sim/sim-runtime.ts';

// `npm run worker`: operations workers as their own process, to scale out beside `npm start`
// (run the server with BERTH_WORKER=off if only these should work the queue).
const config = loadConfigOrExit();
if (!config.databaseUrl) {
  console.error('berth worker needs DATABASE_URL: the embedded PGlite database belongs to one process.');
  process.exit(1);
}
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await ensureDefaultStack(database.db);
const count = Math.max(Number.parseInt(process.env.BERTH_WORKER_CONCURRENCY || '1', 10) || 1, 1);
const workers = Array.from({ length: count }, () =>
  createWorker({
    db: database.db,
    runtimes: { sim: createSimRuntime({ stepMs: config.simStepMs }) },
    leaseMs: config.workerLeaseMs,
    onError: (error) => console.error(loggableError(error)),
  }),
);
for (const worker of workers) worker.start();
console.log(`berth worker: ${count} worker(s) running (${workers.map((w) => w.workerId).join(', ')})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    Promise.all(workers.map((worker) => worker.stop()))
      .then(() => database.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  });
}
