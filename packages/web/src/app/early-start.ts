// The page's start script: built alone into early.js (build/early-script.ts) and written into index.html by
// the server, it runs as the page is parsed and sends the session check and the start-up calls while the
// browser still fetches and compiles the console's code. main.tsx sends them itself when this did not run
// (a page without the runtime config written in, as in development).
import { readInlineRuntimeConfig } from '../lib/config.ts';
import { claimEarlyStart } from '../lib/early-answers.ts';
import { holdPrerenderedSubmits } from '../lib/prerendered-takeover.ts';
import { startEarlyRequests } from './early-requests.ts';

// Before the prerendered sign-in form can be submitted (it is parsed after this script).
holdPrerenderedSubmits();

try {
  if (readInlineRuntimeConfig() && claimEarlyStart()) startEarlyRequests(window.location);
} catch {
  // A config that does not parse is main.tsx's to report; nothing is sent early then.
}
