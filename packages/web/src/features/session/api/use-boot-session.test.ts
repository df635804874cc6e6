import { describe, expect, it } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody, tokenHal } from '../../../../test/fixtures.ts';
import { testQueryClient } from '../../../../test/render.tsx';
import { createSessionStore, fromTokenResource, NO_TOKEN_FOUND } from '../../../lib/session-store.ts';
import { BOOT_RETRIES, bootSession } from './use-boot-session.ts';

describe('boot (spec 3 §4, contract §3.5)', () => {
  it("ends with the note 'no token found' when there is no session", async () => {
    const server = mockServer({
      'GET /auth/current_token': () => json(401, errorBody(401, 'invalid_token', 'No session')),
    });
    const store = createSessionStore();
    await bootSession(testQueryClient(), store);
    expect(store.getState()).toMatchObject({
      phase: 'anonymous',
      bootNote: NO_TOKEN_FOUND,
      accessToken: null,
    });
    expect(NO_TOKEN_FOUND).toBe('no token found');
    const [call] = server.calls;
    expect(call?.headers.Authorization).toBeUndefined();
    expect(call?.credentials).toBe('include');
  });

  it('restores the session from the cookie', async () => {
    mockServer({ 'GET /auth/current_token': () => json(200, tokenHal({ id: 'tok-5', userId: 'user-7' })) });
    const store = createSessionStore();
    await bootSession(testQueryClient(), store);
    expect(store.getState()).toMatchObject({ phase: 'authenticated', bootNote: null });
    expect(store.getState().accessToken).toMatchObject({ id: 'tok-5', userId: 'user-7' });
    expect(store.getState().accessToken?.claims?.scope).toBe('manage');
  });

  it('checks once: a boot asked for after the first has ended sends nothing', async () => {
    const server = mockServer({ 'GET /auth/current_token': () => json(200, tokenHal({ id: 'tok-5' })) });
    const store = createSessionStore();
    const queryClient = testQueryClient();
    await bootSession(queryClient, store);
    // The first render's effect, run just after main.tsx's boot ended.
    await bootSession(queryClient, store);
    expect(server.calls).toHaveLength(1);
    expect(store.getState().accessToken?.id).toBe('tok-5');
  });

  it('leaves a login that finished while the check was out as it is', async () => {
    let answer: (response: Response) => void = () => {};
    mockServer({
      'GET /auth/current_token': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    const store = createSessionStore();
    const booting = bootSession(testQueryClient(), store);
    // The login page is up while booting, and the user signs in before the check answers.
    store.signIn(fromTokenResource(tokenHal({ id: 'tok-login', userId: 'user-7' })));
    answer(json(401, errorBody(401, 'invalid_token', 'No session')));
    await booting;
    expect(store.getState()).toMatchObject({ phase: 'authenticated', bootNote: null });
    expect(store.getState().accessToken?.id).toBe('tok-login');
  });

  it('asks again when the check fails without an answer about the session (a dropped connection, a 503)', async () => {
    const server = mockServer({
      'GET /auth/current_token': [
        () => Promise.reject(new TypeError('Failed to fetch')),
        () => json(503, errorBody(503, 'unavailable', 'Restarting')),
        () => json(200, tokenHal({ id: 'tok-5', userId: 'user-7' })),
      ],
    });
    const store = createSessionStore();
    await bootSession(testQueryClient(), store);
    expect(server.calls).toHaveLength(3);
    expect(store.getState()).toMatchObject({ phase: 'authenticated', bootNote: null });
    expect(store.getState().accessToken?.id).toBe('tok-5');
  });

  it('gives up after BOOT_RETRIES further tries and shows the login page', async () => {
    const server = mockServer({
      'GET /auth/current_token': () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const store = createSessionStore();
    await bootSession(testQueryClient(), store);
    expect(server.calls).toHaveLength(1 + BOOT_RETRIES);
    expect(store.getState()).toMatchObject({ phase: 'anonymous', bootNote: NO_TOKEN_FOUND });
  });

  it('does not ask again after a 401: that answer says there is no session', async () => {
    const server = mockServer({
      'GET /auth/current_token': () => json(401, errorBody(401, 'invalid_token', 'No session')),
    });
    await bootSession(testQueryClient(), createSessionStore());
    expect(server.calls).toHaveLength(1);
  });
});
