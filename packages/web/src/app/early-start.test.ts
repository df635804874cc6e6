import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../test/console-routes.ts';
import { json, mockServer, type RecordedCall } from '../../test/fetch-mock.ts';
import { organizationHal, TEST_CONFIG, tokenHal } from '../../test/fixtures.ts';
import type { EarlyWorkerStart } from '../lib/early-answers.ts';
import { startupPaths } from '../lib/startup-paths.ts';
import { type EarlyWorkerScope, serveEarlyStart } from './early-requests.ts';

// The page's start script (early-start.ts, built alone into early.js) and the console's bundle are two
// bundles with a module each of lib/early-answers.ts: they share the early answers through the page.
// vi.resetModules() gives each import below modules of its own, as the two bundles have.

const TOKEN = tokenHal();
const signedIn = () => ({ 'GET /auth/current_token': () => json(200, TOKEN), ...consoleRoutes() });
const settled = async (calls: RecordedCall[], count: number) => {
  await expect.poll(() => calls.length, { timeout: 5000 }).toBe(count);
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(calls).toHaveLength(count);
};

function writeConfig(text: string | null) {
  document.getElementById('berth-config')?.remove();
  if (text === null) return;
  const element = document.createElement('script');
  element.id = 'berth-config';
  element.type = 'application/json';
  element.textContent = text;
  document.head.append(element);
}

/** Nothing left early, and the calls are main.tsx's to send: its claim is the page load's first. */
async function expectNothingSentEarly(calls: RecordedCall[]) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(calls).toHaveLength(0);
  vi.resetModules();
  const { claimEarlyStart } = await import('../lib/early-answers.ts');
  expect(claimEarlyStart()).toBe(true);
}

/**
 * The start worker as the page sees it: app/early-worker.ts's serveEarlyStart, run here on the test's
 * modules (a third bundle in the browser), its messages delivered in order, each in a task of its own.
 */
class FakeWorker extends EventTarget {
  static started: string[] = [];
  private onStart: ((event: MessageEvent<EarlyWorkerStart>) => void) | null = null;
  private readonly scope: EarlyWorkerScope = {
    addEventListener: (_type, listener) => {
      this.onStart = listener;
    },
    postMessage: (data) => {
      setTimeout(() => this.dispatchEvent(new MessageEvent('message', { data })));
    },
    close: () => {},
  };
  constructor(readonly url: string) {
    super();
    FakeWorker.started.push(url);
    serveEarlyStart(this.scope);
  }
  /** The page's start message: taken once, as the worker listens for it. */
  postMessage(start: EarlyWorkerStart) {
    const listener = this.onStart;
    this.onStart = null;
    listener?.(new MessageEvent('message', { data: start }));
  }
  terminate() {}
}

beforeEach(() => {
  delete (globalThis as Record<string, unknown>).__berthEarly;
  vi.resetModules();
  FakeWorker.started = [];
  vi.stubGlobal('Worker', FakeWorker);
  // jsdom makes no blob addresses: the address names the code's size and type instead.
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: (blob: Blob) => `blob:${blob.type};${blob.size}`,
      revokeObjectURL: () => {},
    }),
  );
});

afterEach(() => {
  writeConfig(null);
});

describe("the page's start script", () => {
  it('sends the start-up calls as the page is parsed; the console then sends none again and takes their answers', async () => {
    const { calls } = mockServer(signedIn());
    writeConfig(JSON.stringify(TEST_CONFIG));
    window.history.replaceState(null, '', '/apps');
    await import('./early-start.ts');
    await settled(calls, 9);
    // Started from a blob of the worker's code (the placeholder in a test's unbuilt module).
    expect(FakeWorker.started).toEqual([`blob:text/javascript;${'__BERTH_EARLY_WORKER__'.length}`]);
    expect(calls.some((call) => call.path === `/api${startupPaths.apps}`)).toBe(true);

    // The console's bundle: main.tsx finds the calls sent, and its api client takes their answers.
    vi.resetModules();
    const consoleAnswers = await import('../lib/early-answers.ts');
    expect(consoleAnswers.claimEarlyStart()).toBe(false);
    await (await import('../lib/config.ts')).loadRuntimeConfig();
    const { apiRequest } = await import('../lib/api-client.ts');
    const { sessionStore, fromTokenResource } = await import('../lib/session-store.ts');
    sessionStore.signIn(fromTokenResource(TOKEN));
    await apiRequest('api', startupPaths.apps);
    // The billing detail too (contract §7 step 4), as the shell asks for it.
    await apiRequest('billing', `/billing_details/${organizationHal().id}`);
    expect(calls).toHaveLength(9);
  });

  it('sends nothing without a runtime config written into the page, nor with one that does not parse; main.tsx sends the calls then', async () => {
    const { calls } = mockServer(signedIn());
    writeConfig(null);
    await import('./early-start.ts');
    writeConfig('{not json');
    vi.resetModules();
    await import('./early-start.ts');
    await expectNothingSentEarly(calls);
    const { claimEarlyStart } = await import('../lib/early-answers.ts');
    // Once per page load.
    expect(claimEarlyStart()).toBe(false);
  });

  it('gives the calls back to main.tsx when the worker is refused after it was made (a policy error event)', async () => {
    const { calls } = mockServer(signedIn());
    writeConfig(JSON.stringify(TEST_CONFIG));
    vi.stubGlobal(
      'Worker',
      class extends EventTarget {
        constructor() {
          super();
          setTimeout(() => this.dispatchEvent(new Event('error')));
        }
        postMessage() {}
        terminate() {}
      },
    );
    await import('./early-start.ts');
    await expectNothingSentEarly(calls);
  });

  it('leaves the calls to main.tsx where the browser has no worker, or refuses it', async () => {
    const { calls } = mockServer(signedIn());
    writeConfig(JSON.stringify(TEST_CONFIG));
    vi.stubGlobal('Worker', undefined);
    await import('./early-start.ts');
    vi.resetModules();
    vi.stubGlobal(
      'Worker',
      class {
        constructor() {
          throw new DOMException('refused', 'SecurityError');
        }
      },
    );
    await import('./early-start.ts');
    await expectNothingSentEarly(calls);
  });
});
