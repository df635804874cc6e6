// The start worker: built alone (build/early-script.ts) and started by the page's start script
// (app/early-start.ts), it sends the start-up chain off the page's main thread, which is busy compiling
// and running the console's code while the answers arrive. Its messages say what it sent and what came
// back (lib/early-answers.ts); it closes once every answer has been posted.
import { setRuntimeConfig } from '../lib/config.ts';
import { type EarlyWorkerStart, workerSender } from '../lib/early-answers.ts';
import { sendEarlyRequests } from './early-requests.ts';

addEventListener(
  'message',
  (event: MessageEvent<EarlyWorkerStart>) => {
    setRuntimeConfig(event.data.config);
    const sender = workerSender(
      (message, transfer = []) => postMessage(message, { transfer }),
      () => close(),
    );
    sendEarlyRequests(event.data.location, sender).catch(() => {});
  },
  { once: true },
);
