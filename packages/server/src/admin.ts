/**
 * `npm run admin -- make-superuser EMAIL` (and `plans …`): operator commands on the database the server uses
 * (DATABASE_URL, or PGlite in BERTH_DATA_DIR; stop the server first when it runs on PGlite), and
 * `stop-edge` on the data directory (the server stopped); `close-period` invoices every organization now.
 */

import { AdminUsageError, closePeriodCommand, runAdminCommand, stopEdgeCommand } from './admin-commands.ts';
import { swarmClusterTlsBox } from './api/stacks/swarm-clusters.service.ts';
import { loadSigningKey } from './auth/tokens/token-keys.ts';
import {
  activePlanTerms,
  createInvoicesService,
  invoicePortalKey,
} from './billing/invoices/invoices.service.ts';
import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './db/client.ts';
import { lockDataDirOrExit } from './db/data-dir-lock.ts';
import { createFilesPrivately } from './db/private-data-dir.ts';
import { engineAt } from './runtimes/swarm/swarm-databases.ts';

// Issue 34: what the command writes in the data directory is its user's alone.
createFilesPrivately();
const config = loadConfigOrExit();
const [command, ...args] = process.argv.slice(2);
if (command === 'stop-edge') {
  // The edge lives in the data directory, which a running server holds (and it would start the edge again).
  const releaseDataDir = lockDataDirOrExit(config.dataDir);
  try {
    console.log(await stopEdgeCommand(config.edge.dir, args));
  } catch (error) {
    console.error(error instanceof AdminUsageError ? error.message : error);
    process.exitCode = 1;
  } finally {
    releaseDataDir();
  }
  process.exit();
}
// On the embedded database the command needs the data directory to itself (the server stopped).
const release = config.databaseUrl ? () => {} : lockDataDirOrExit(config.dataDir);
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  if (command === 'close-period') {
    const invoices = createInvoicesService({
      db: database.db,
      planTerms: activePlanTerms(database.db),
      portalKey: invoicePortalKey(await loadSigningKey(database.db, config.jwtSecret)),
      // An organization that could not be invoiced stays open; the others are closed all the same.
      onError: (error) => {
        console.error(error instanceof Error ? error.message : error);
        process.exitCode = 1;
      },
    });
    console.log(await closePeriodCommand(invoices, args));
  } else {
    const { swarm } = config;
    const swarmManager = swarm ? () => engineAt(swarm.host, swarm.tlsDir) : undefined;
    // A registered cluster's certificates are sealed with the server secret, as the server opens them.
    const box = swarmClusterTlsBox(await loadSigningKey(database.db, config.jwtSecret));
    const addStack = {
      box,
      defaultSwarm: swarm,
      appsDomain: config.edge.appsDomain,
      autoscaling: config.autoscaling,
      engineAt,
    };
    console.log(await runAdminCommand(database.db, process.argv.slice(2), { swarmManager, addStack }));
  }
} catch (error) {
  console.error(error instanceof AdminUsageError ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
  release();
}
