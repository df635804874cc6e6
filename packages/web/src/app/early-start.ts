// The page's start script: built alone into early.js (build/early-script.ts) and written into index.html by
// the server, it runs as the page is parsed and starts the start worker (app/early-worker.ts), which sends
// the session check and the start-up calls while the browser still fetches and compiles the console's
// code. main.tsx sends them itself when this did not run (a page without the runtime config written in,
// as in development, or a browser that refused the worker).
import { readInlineRuntimeConfig } from '../lib/config.ts';
import {
  claimEarlyStart,
  type EarlyWorkerStart,
  releaseEarlyStart,
  takeWorkerAnswers,
} from '../lib/early-answers.ts';
import { holdPrerenderedSubmits } from '../lib/prerendered-takeover.ts';
import { startupPaths } from '../lib/startup-paths.ts';

/**
 * The start worker's code, written in where this script is built (build/early-script.ts). It starts
 * from a blob, not from a file: a file would wait for a free connection behind the console's own
 * scripts, and the session check would leave only once it had arrived.
 */
const EARLY_WORKER_CODE = '__BERTH_EARLY_WORKER__';

// Before the prerendered sign-in form can be submitted (it is parsed after this script).
holdPrerenderedSubmits();

try {
  const config = readInlineRuntimeConfig();
  if (config && typeof Worker === 'function') {
    const address = URL.createObjectURL(new Blob([EARLY_WORKER_CODE], { type: 'text/javascript' }));
    const worker = new Worker(address);
    // The worker has its code once constructed: the blob need not stay.
    URL.revokeObjectURL(address);
    if (claimEarlyStart()) {
      // Refused after all (a policy's error event comes later): main.tsx sends the chain from the page.
      takeWorkerAnswers(worker, { family: 'auth', path: startupPaths.currentToken }, releaseEarlyStart);
      const { pathname, search } = window.location;
      worker.postMessage({ config, location: { pathname, search } } satisfies EarlyWorkerStart);
    } else worker.terminate();
  }
} catch {
  // A config that does not parse is main.tsx's to report; a worker refused leaves the calls to main.tsx.
}
