// The start worker: built alone (build/early-script.ts) and started by the page's start script
// (app/early-start.ts), it sends the start-up chain off the page's main thread, which is busy compiling
// and running the console's code while the answers arrive (serveEarlyStart, app/early-requests.ts).
import { type EarlyWorkerScope, serveEarlyStart } from './early-requests.ts';

// The worker's global scope; the project's types know the page's only.
serveEarlyStart(self as unknown as EarlyWorkerScope);
