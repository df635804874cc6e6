// First: before any schema parses (see the module).
import './lib/zod-jitless.ts';
import { StrictMode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { App } from './app/app.tsx';
import { startEarlyRequests } from './app/early-requests.ts';
import { appRoutes } from './app/router.tsx';
import { bootSession } from './features/session/api/use-boot-session.ts';
import { loadRuntimeConfig } from './lib/config.ts';
import { claimEarlyStart } from './lib/early-answers.ts';
import { readTyped, restoreTyped, routerReady, takeHeldSubmit } from './lib/prerendered-takeover.ts';
import { clearQueriesOnReset, createQueryClient } from './lib/query-client.ts';
import { sessionStore } from './lib/session-store.ts';
import { syncTabs } from './lib/tab-sync.ts';
import './styles/global.css';
import './components/ui/ui.css';
import { messageOf } from './lib/error-message.ts';

async function start(container: HTMLElement) {
  const root = createRoot(container);
  try {
    // The service base URLs come from the server (design.md), so nothing renders before they are known.
    await loadRuntimeConfig();
  } catch (error) {
    root.render(
      <main className="full-page-center">
        <div className="banner banner-error" role="alert">
          <div className="banner-body">
            <p className="banner-title">Berth could not load its configuration</p>
            <p className="banner-text">{messageOf(error)}</p>
          </div>
        </div>
      </main>,
    );
    return;
  }
  const queryClient = createQueryClient();
  clearQueriesOnReset(queryClient, sessionStore);
  // Other tabs of this browser hear of what changes here, and this one of theirs.
  syncTabs(queryClient);
  // The session check and the data every signed-in page needs leave now, while the router still loads
  // the page's code (the console's own calls take their answers), unless the page's start script
  // (app/early-start.ts) sent them before this code arrived.
  if (claimEarlyStart()) startEarlyRequests(window.location);
  void bootSession(queryClient);
  const router = createBrowserRouter(appRoutes);
  const app = (
    <StrictMode>
      <App router={router} queryClient={queryClient} />
    </StrictMode>
  );
  if (!container.hasAttribute('data-prerendered')) {
    root.render(app);
    return;
  }
  // The server sent this page's form already drawn (build/prerender.ts), and the visitor may be typing
  // in it. It stays until the page's code has loaded, so the first render is the same page, not a
  // spinner; then React's form replaces it in one synchronous commit (no frame in between) and gets
  // what was typed, and the focus, carried over.
  await routerReady(router);
  const typed = readTyped(container);
  flushSync(() => root.render(app));
  restoreTyped(container, typed);
  container.removeAttribute('data-prerendered');
  // A submit pressed before now was held by the start script (holdPrerenderedSubmits): it goes now.
  if (takeHeldSubmit()) container.querySelector('form')?.requestSubmit();
}

const container = document.getElementById('root');
if (container) void start(container);
