import {
  activityReportLinksKey,
  createActivityReportsService,
} from './api/activity-reports/activity-reports.service.ts';
import { ensureDefaultStack } from './api/stacks/stacks.service.ts';
import { registeredSwarmClusters, swarmClusterTlsBox } from './api/stacks/swarm-clusters.service.ts';
import { loadSigningKey } from './auth/tokens/token-keys.ts';
import {
  activePlanTerms,
  createInvoicesService,
  invoicePortalKey,
} from './billing/invoices/invoices.service.ts';
import { drainTlsOf, loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/client.ts';
import { createFilesPrivately } from './db/private-data-dir.ts';
import { createLogShipper } from './drains/log-shipper.ts';
import { createMetricShipper } from './drains/metric-shipper.ts';
import { loggableError } from './http/loggable-error.ts';
import { createActivityReportScheduler } from './operations/activity-report-scheduler.ts';
import { createAutoscaler, runtimeLoadSource } from './operations/autoscaler.ts';
import { createBackupScheduler } from './operations/backup-scheduler.ts';
import { createContainerReconciler } from './operations/container-reconciler.ts';
import { createOperationsService, operationLogsKey } from './operations/operations.service.ts';
import { periodic } from './operations/periodic.ts';
import { createSizingRecommender, runtimeUsageSource } from './operations/sizing-recommender.ts';
import { createWorker, describeOperationEvent } from './operations/worker.ts';
import { createRuntimes } from './runtimes/runtimes.ts';
import { createSecretBox, databaseCredentialsBox } from './security/secret-box.ts';
import { checkMachineOrExit } from './start-checks.ts';

// `npm run worker`: operations workers as their own process, to scale out beside `npm start`
// (run the server with BERTH_WORKER=off if only these should work the queue).
// Issue 34: the backups (and any other file) it writes are its user's alone.
createFilesPrivately();
const config = loadConfigOrExit();
if (!config.databaseUrl) {
  console.error('berth worker needs DATABASE_URL: the embedded PGlite database belongs to one process.');
  process.exit(1);
}
// On the docker runtime the engine must answer (DOCKER_HOST): said in one line now, not per operation later.
await checkMachineOrExit(config, 'worker');
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
await ensureDefaultStack(database.db, config.runtime, config.edge.appsDomain, config.autoscaling);
// The same server secret as the API process: what one seals, the other opens.
const signingKey = await loadSigningKey(database.db, config.jwtSecret);
const secrets = databaseCredentialsBox(signingKey);
// Automatic backups are scheduled from worker processes too (the API may run with BERTH_WORKER=off); the
// queue's unique index keeps one per database however many processes schedule them.
const operations = createOperationsService({
  db: database.db,
  logsKey: operationLogsKey(signingKey),
  limits: config.operationLimits,
});
const backupScheduler = createBackupScheduler({
  db: database.db,
  operations,
  onError: (error) => console.error(loggableError(error)),
});
// Weekly activity reports are made here too; the unique index keeps one per environment and week.
const activityReportScheduler = createActivityReportScheduler({
  reports: createActivityReportsService({ db: database.db, linksKey: activityReportLinksKey(signingKey) }),
  onError: (error) => console.error(loggableError(error)),
});
const count = config.workerConcurrency;
// One set of runtimes for the process: the docker runtime's stats recorder samples once for all workers.
const clusterTls = swarmClusterTlsBox(signingKey);
const {
  runtimes,
  close: closeRuntimes,
  lookForClusters,
} = await createRuntimes(config, signingKey, {
  superviseEdge: false,
  clusters: () => registeredSwarmClusters(database.db, clusterTls),
});
const workers = Array.from({ length: count }, () =>
  createWorker({
    db: database.db,
    runtimes,
    lookForRuntimes: lookForClusters,
    secrets,
    drainTls: drainTlsOf(config),
    leaseMs: config.workerLeaseMs,
    onError: (error) => console.error(loggableError(error)),
    onOperation: (event) => console.log(describeOperationEvent(event)),
  }),
);
// Containers gone from the machines are started again (automated restarts; one per service at a time).
const reconciler = createContainerReconciler({
  db: database.db,
  runtimes,
  operations,
  onError: (error) => console.error(loggableError(error)),
  onOrphansRemoved: (names) =>
    console.warn(`Removed ${names.length} orphaned container(s): ${names.join(', ')}`),
  onRoutingRepaired: (changes) =>
    console.warn(`Re-routed endpoints to moved containers: ${changes.join('; ')}`),
});
// Log drains ship from here too; each drain from one process at a time.
const logShipper = createLogShipper({
  db: database.db,
  runtimes,
  box: createSecretBox(signingKey, 'log drains'),
  databaseSecrets: secrets,
  tls: drainTlsOf(config),
  onError: (error) => console.error(loggableError(error)),
});
logShipper.start(config.drainIntervalSeconds * 1000);
const metricShipper = createMetricShipper({
  db: database.db,
  runtimes,
  box: createSecretBox(signingKey, 'metric drains'),
  databaseSecrets: secrets,
  tls: drainTlsOf(config),
  onError: (error) => console.error(loggableError(error)),
});
metricShipper.start(Math.max(1, config.metricDrainIntervalSeconds) * 1000);
// The autoscaler and the daily recommendations run here too (one automated scale per service at a time).
const autoscaler = createAutoscaler({
  db: database.db,
  operations,
  load: runtimeLoadSource(runtimes),
  onError: (error) => console.error(loggableError(error)),
});
autoscaler.start(Math.max(1, config.autoscaleIntervalSeconds) * 1000);
const recommender = createSizingRecommender({
  db: database.db,
  usage: runtimeUsageSource(runtimes),
  minimumObservedMs: config.recommendationMinObservedMinutes * 60_000,
  onError: (error) => console.error(loggableError(error)),
});
recommender.start(Math.max(1, config.recommendationCheckSeconds) * 1000);
// The usage meter and the month-end invoices (issue 37): each pass is idempotent, so any process may run it.
const invoices = createInvoicesService({
  db: database.db,
  planTerms: activePlanTerms(database.db),
  portalKey: invoicePortalKey(signingKey),
  onError: (error) => console.error(loggableError(error)),
});
const usageMeter = periodic(
  () => invoices.pass(),
  (error) => console.error(loggableError(error)),
);
usageMeter.start(config.usageMeterSeconds * 1000, { immediately: true });
for (const worker of workers) worker.start();
backupScheduler.start(config.backupCheckSeconds * 1000);
activityReportScheduler.start(config.activityReportCheckSeconds * 1000);
// A report asked for through a web-only API process (BERTH_WORKER=off), which leaves it to the workers,
// is made here within half a minute: the check is one query on the pending reports' index.
const pendingReports = periodic(
  () => activityReportScheduler.poke(),
  (error) => console.error(loggableError(error)),
);
pendingReports.start(30_000);
reconciler.start();
console.log(`berth worker: ${count} worker(s) running (${workers.map((w) => w.workerId).join(', ')})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping the berth worker…');
    Promise.all([
      backupScheduler.stop(),
      pendingReports.stop(),
      activityReportScheduler.stop(),
      reconciler.stop(),
      logShipper.stop(),
      metricShipper.stop(),
      autoscaler.stop(),
      recommender.stop(),
      usageMeter.stop(),
      ...workers.map((worker) => worker.stop()),
    ])
      .then(async () => {
        await closeRuntimes();
        return database.close();
      })
      .then(
        () => {
          console.log('berth worker stopped.');
          process.exit(0);
        },
        (error: unknown) => {
          console.error(`berth worker stopped, but not cleanly: ${(error as Error)?.message ?? error}`);
          process.exit(1);
        },
      );
  });
}
