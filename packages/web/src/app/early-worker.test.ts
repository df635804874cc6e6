import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../test/console-routes.ts';
import { json, mockServer, type RecordedCall } from '../../test/fetch-mock.ts';
import { organizationHal, tokenHal } from '../../test/fixtures.ts';
import { billingDetailPath } from '../features/billing/api/billing.ts';
import { apiRequest } from '../lib/api-client.ts';
import { getRuntimeConfig } from '../lib/config.ts';
import {
  EARLY_WORKER_START_MS,
  type EarlyWorkerMessage,
  forgetEarlyAnswers,
  headersFor,
  takeEarlyAnswer,
  takeWorkerAnswers,
  workerSender,
} from '../lib/early-answers.ts';
import { fromTokenResource, sessionStore } from '../lib/session-store.ts';
import { startupPaths } from '../lib/startup-paths.ts';
import { sendEarlyRequests } from './early-requests.ts';

// The start worker's chain (app/early-worker.ts) and the page's side of it, joined here by an event
// target that delivers each message in a task of its own, in order, as a worker's messages arrive.

const ORGANIZATION = organizationHal().id;
const TOKEN = tokenHal();
const signedIn = () => ({ 'GET /auth/current_token': () => json(200, TOKEN), ...consoleRoutes() });
const SESSION_CHECK = { family: 'auth', path: startupPaths.currentToken } as const;
const urlOf = (family: 'auth' | 'api' | 'billing', path: string) => {
  const config = getRuntimeConfig();
  const base = { auth: config.authUrl, api: config.apiUrl, billing: config.billingUrl }[family];
  return `${base}${path}`;
};

/** A worker as the page sees it, and the messages its sender posted, in order. */
function fakeWorker() {
  const port = Object.assign(new EventTarget(), { terminate: vi.fn() });
  const posted: EarlyWorkerMessage[] = [];
  const post = (message: EarlyWorkerMessage) => {
    posted.push(message);
    setTimeout(() => port.dispatchEvent(new MessageEvent('message', { data: message })));
  };
  return { port, posted, post };
}

/** A message's place in the order: the first one of `kind` for the path `path` (its query aside). */
function placeOf(posted: EarlyWorkerMessage[], kind: EarlyWorkerMessage['kind'], path: string): number {
  const place = posted.findIndex(
    (message) => message.kind === kind && 'url' in message && new URL(message.url).pathname === path,
  );
  if (place === -1) throw new Error(`no ${kind} message for ${path}`);
  return place;
}

afterEach(() => {
  vi.useRealTimers();
  forgetEarlyAnswers();
});

describe('the start worker', () => {
  it('sends the chain and tells the page of each call before the answer that leads the console to it', async () => {
    const { calls } = mockServer(signedIn());
    const { port, posted, post } = fakeWorker();
    takeWorkerAnswers(port, SESSION_CHECK, () => {});
    const done = vi.fn();
    await sendEarlyRequests({ pathname: '/apps', search: '' }, workerSender(post, done));
    await expect.poll(() => done.mock.calls.length).toBe(1);
    expect(posted.at(-1)).toEqual({ kind: 'done' });
    expect(calls).toHaveLength(9);

    // The session check's answer comes after every call it leads to has been announced ...
    const sessionAnswer = placeOf(posted, 'answer', '/auth/current_token');
    for (const path of ['/auth/users/user-1', '/auth/organizations', '/api/stacks', '/api/accounts']) {
      expect(placeOf(posted, 'sent', path), path).toBeLessThan(sessionAnswer);
    }
    // ... and the organizations' after their roles and billing detail.
    const organizationsAnswer = placeOf(posted, 'answer', '/auth/organizations');
    expect(placeOf(posted, 'sent', `/auth/organizations/${ORGANIZATION}/roles`)).toBeLessThan(
      organizationsAnswer,
    );
    expect(placeOf(posted, 'sent', `/billing/billing_details/${ORGANIZATION}`)).toBeLessThan(
      organizationsAnswer,
    );

    // The page's 5,000 rows leave last, behind the calls that no page shows before.
    expect(placeOf(posted, 'sent', '/api/apps')).toBeGreaterThan(
      placeOf(posted, 'sent', `/billing/billing_details/${ORGANIZATION}`),
    );

    // The console's own calls take the answers, each once, without asking again.
    await new Promise((resolve) => setTimeout(resolve, 20));
    sessionStore.signIn(fromTokenResource(TOKEN));
    const apps = await apiRequest<{ _embedded?: unknown }>('api', startupPaths.apps);
    expect(apps).toBeTruthy();
    await apiRequest('billing', billingDetailPath(ORGANIZATION));
    await apiRequest('auth', startupPaths.organizationRoles(ORGANIZATION));
    expect(calls).toHaveLength(9);
    await apiRequest('api', startupPaths.apps);
    expect(calls).toHaveLength(10);
  });

  it('lets the console wait for the session check before the worker has said anything', async () => {
    const { calls } = mockServer(signedIn());
    const { port, post } = fakeWorker();
    takeWorkerAnswers(port, SESSION_CHECK, () => {});
    // Taken at once, as the console asks first: it resolves with the worker's answer.
    const early = takeEarlyAnswer(urlOf('auth', startupPaths.currentToken), headersFor(null));
    expect(early).toBeDefined();
    await sendEarlyRequests(
      { pathname: '/environments', search: '' },
      workerSender(post, () => {}),
    );
    const answer = await early;
    expect(answer?.status).toBe(200);
    expect(await answer?.json()).toEqual(TOKEN);
    expect(calls.filter((call) => call.path === '/auth/current_token')).toHaveLength(1);
  });

  it('answers the console as the server did: status, headers and body, a failure as a failed fetch', async () => {
    const { port } = fakeWorker();
    takeWorkerAnswers(port, SESSION_CHECK, () => {});
    const url = urlOf('api', startupPaths.stacks);
    const deliver = (message: EarlyWorkerMessage) =>
      port.dispatchEvent(new MessageEvent('message', { data: message }));
    deliver({ kind: 'sent', url, accessToken: 'bearer' });
    deliver({ kind: 'sent', url: `${url}&failing`, accessToken: 'bearer' });
    const body = new TextEncoder().encode('{"message":"nope"}').buffer as ArrayBuffer;
    deliver({
      kind: 'answer',
      url,
      accessToken: 'bearer',
      status: 403,
      statusText: 'Forbidden',
      headers: [['content-type', 'application/hal+json']],
      body,
    });
    deliver({ kind: 'failed', url: `${url}&failing`, accessToken: 'bearer' });
    // Another bearer's call is not this one.
    expect(takeEarlyAnswer(url, headersFor('other'))).toBeUndefined();
    const answer = await takeEarlyAnswer(url, headersFor('bearer'));
    expect(answer?.status).toBe(403);
    expect(answer?.headers.get('content-type')).toBe('application/hal+json');
    expect(await answer?.text()).toBe('{"message":"nope"}');
    await expect(takeEarlyAnswer(`${url}&failing`, headersFor('bearer'))).rejects.toThrow(TypeError);
  });

  it('keeps no call announced after a write, and answers a taken one all the same', async () => {
    const { port } = fakeWorker();
    takeWorkerAnswers(port, SESSION_CHECK, () => {});
    const deliver = (message: EarlyWorkerMessage) =>
      port.dispatchEvent(new MessageEvent('message', { data: message }));
    const session = takeEarlyAnswer(urlOf('auth', startupPaths.currentToken), headersFor(null));
    forgetEarlyAnswers();
    const url = urlOf('api', startupPaths.environments);
    deliver({ kind: 'sent', url, accessToken: 'bearer' });
    expect(takeEarlyAnswer(url, headersFor('bearer'))).toBeUndefined();
    deliver({
      kind: 'answer',
      url: urlOf('auth', startupPaths.currentToken),
      accessToken: null,
      status: 200,
      statusText: 'OK',
      headers: [],
      body: new TextEncoder().encode('{}').buffer as ArrayBuffer,
    });
    expect((await session)?.status).toBe(200);
  });

  it('when the worker fails, the page asks for each call the console awaits, and forgets the others', async () => {
    const { calls } = mockServer(signedIn());
    const { port } = fakeWorker();
    const refused = vi.fn();
    takeWorkerAnswers(port, SESSION_CHECK, refused);
    port.dispatchEvent(
      new MessageEvent('message', {
        data: { kind: 'sent', url: urlOf('api', '/stacks'), accessToken: 'bearer' },
      }),
    );
    const session = takeEarlyAnswer(urlOf('auth', startupPaths.currentToken), headersFor(null));
    port.dispatchEvent(new Event('error'));
    expect(port.terminate).toHaveBeenCalled();
    expect(await (await session)?.json()).toEqual(TOKEN);
    expect(calls.map((call: RecordedCall) => call.path)).toEqual(['/auth/current_token']);
    // Not taken: forgotten rather than asked, so that the console's own call asks once.
    expect(takeEarlyAnswer(urlOf('api', '/stacks'), headersFor('bearer'))).toBeUndefined();
    // It had spoken: the chain is not sent again from the page.
    expect(refused).not.toHaveBeenCalled();
  });

  it('gives the chain back to the page when the worker fails before its first word, or says nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for (const fail of [
      (port: EventTarget) => port.dispatchEvent(new Event('error')),
      () => vi.advanceTimersByTime(EARLY_WORKER_START_MS),
    ]) {
      const { port } = fakeWorker();
      const refused = vi.fn();
      takeWorkerAnswers(port, SESSION_CHECK, refused);
      fail(port);
      expect(refused).toHaveBeenCalledTimes(1);
      expect(port.terminate).toHaveBeenCalled();
      // The session check, not taken yet, is left to the page's chain.
      expect(takeEarlyAnswer(urlOf('auth', startupPaths.currentToken), headersFor(null))).toBeUndefined();
    }
    vi.useRealTimers();
  });

  it('answers a status without a body as one', async () => {
    const { port } = fakeWorker();
    takeWorkerAnswers(port, SESSION_CHECK, () => {});
    const url = urlOf('api', startupPaths.stacks);
    for (const data of [
      { kind: 'sent', url, accessToken: 'bearer' },
      {
        kind: 'answer',
        url,
        accessToken: 'bearer',
        status: 304,
        statusText: '',
        headers: [],
        body: new ArrayBuffer(0),
      },
    ]) {
      port.dispatchEvent(new MessageEvent('message', { data }));
    }
    const answer = await takeEarlyAnswer(url, headersFor('bearer'));
    expect(answer?.status).toBe(304);
    expect(answer?.body).toBeNull();
  });

  it('posts an answer the chain reads once the chain is over, when it ended before that answer came', async () => {
    let answerUser: (response: Response) => void = () => {};
    const fetchImpl = vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.includes('/current_token')) return json(200, TOKEN);
      if (url.includes('/organizations')) throw new TypeError('Failed to fetch');
      if (url.includes('/users/user-1') && !url.includes('/roles')) {
        return new Promise<Response>((resolve) => {
          answerUser = resolve;
        });
      }
      return json(200, {});
    });
    const { posted, post } = fakeWorker();
    const done = vi.fn();
    await expect(
      sendEarlyRequests({ pathname: '/apps', search: '' }, workerSender(post, done, fetchImpl)),
    ).rejects.toThrow(TypeError);
    expect(done).not.toHaveBeenCalled();
    answerUser(json(200, { id: 'user-1' }));
    await expect.poll(() => done.mock.calls.length).toBe(1);
    expect(placeOf(posted, 'failed', '/auth/organizations')).toBeLessThan(
      placeOf(posted, 'answer', '/auth/users/user-1'),
    );
  });
});
