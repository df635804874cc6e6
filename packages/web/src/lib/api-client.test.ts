import { describe, expect, it } from 'vitest';
import { json, mockServer, noContent } from '../../test/fetch-mock.ts';
import { errorBody, tokenHal, userHal } from '../../test/fixtures.ts';
import { signIn } from '../../test/render.tsx';
import { ApiError, apiDownload, apiRequest } from './api-client.ts';
import { readPersisted, writePersisted } from './persisted-state.ts';
import { fromTokenResource, sessionStore } from './session-store.ts';

describe('apiRequest', () => {
  it('sends HAL+JSON with the bearer token and cookies, and reads the body', async () => {
    signIn({ id: 'tok-9' });
    const server = mockServer({ 'GET /auth/users/user-1': () => json(200, userHal()) });

    const user = await apiRequest<{ email: string }>('auth', '/users/user-1');

    expect(user.email).toBe('ada@example.com');
    const [call] = server.calls;
    expect(call?.headers['Content-Type']).toBe('application/hal+json');
    expect(call?.headers.Authorization).toBe(`Bearer ${sessionStore.getState().accessToken?.accessToken}`);
    expect(call?.credentials).toBe('include');
  });

  it('reads a 204 as an empty object', async () => {
    signIn();
    mockServer({ 'DELETE /auth/tokens/tok-1': () => noContent() });
    await expect(apiRequest('auth', '/tokens/tok-1', { method: 'DELETE' })).resolves.toEqual({});
  });

  it("throws an ApiError with the body's message, error code and status", async () => {
    mockServer({
      'POST /auth/tokens': () =>
        json(401, errorBody(401, 'invalid_credentials', 'Invalid email or password')),
    });
    const failure = apiRequest('auth', '/tokens', { method: 'POST', body: {}, auth: 'none' });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 401,
      code: 'invalid_credentials',
      message: 'Invalid email or password',
    });
  });

  it('drops the token and clears the store on a 401 to a GET, keeping persisted state', async () => {
    signIn();
    sessionStore.setElevatedToken(
      fromTokenResource(tokenHal({ id: 'tok-2', scope: 'elevated', lifetime: 1800 })),
    );
    writePersisted('redirectPath', '/environments');
    let resets = 0;
    const stop = sessionStore.onReset(() => {
      resets += 1;
    });
    mockServer({
      'GET /auth/users/user-1': () => json(401, errorBody(401, 'invalid_token', 'Token expired')),
    });

    await expect(apiRequest('auth', '/users/user-1')).rejects.toMatchObject({ status: 401 });

    expect(sessionStore.getState()).toMatchObject({
      phase: 'anonymous',
      accessToken: null,
      elevatedToken: null,
    });
    expect(resets).toBe(1);
    expect(readPersisted('redirectPath')).toBe('/environments');
    stop();
  });

  it('keeps the token on a 401 to anything but a GET', async () => {
    signIn();
    mockServer({ 'PUT /auth/users/user-1': () => json(401, errorBody(401, 'invalid_credentials', 'Nope')) });
    await expect(apiRequest('auth', '/users/user-1', { method: 'PUT', body: {} })).rejects.toMatchObject({
      status: 401,
    });
    expect(sessionStore.getState().phase).toBe('authenticated');
  });

  it('sends the elevated token when asked and it is still valid, else the session token', async () => {
    signIn();
    const server = mockServer({ 'GET /auth/users/user-1': () => json(200, userHal()) });
    await apiRequest('auth', '/users/user-1', { auth: 'elevated' });
    const elevated = fromTokenResource(tokenHal({ id: 'tok-2', scope: 'elevated', lifetime: 1800 }));
    sessionStore.setElevatedToken(elevated);
    await apiRequest('auth', '/users/user-1', { auth: 'elevated' });

    expect(server.calls[0]?.headers.Authorization).toBe(
      `Bearer ${sessionStore.getState().accessToken?.accessToken}`,
    );
    expect(server.calls[1]?.headers.Authorization).toBe(`Bearer ${elevated.accessToken}`);
  });

  it('treats a 2xx without JSON as a failure (contract §1.2)', async () => {
    mockServer({ 'GET /api/stacks': () => new Response('', { status: 200 }) });
    await expect(apiRequest('api', '/stacks', { auth: 'none' })).rejects.toBeInstanceOf(ApiError);
  });
});

describe('apiDownload', () => {
  it('reads the answer as a blob, sent as any GET is (bearer and cookies)', async () => {
    signIn();
    const server = mockServer({
      'GET /api/support/attachments/5': () => new Response('a log line', { status: 200 }),
    });
    const file = await apiDownload('api', '/support/attachments/5');
    expect(await file.text()).toBe('a log line');
    const [call] = server.calls;
    expect(call?.headers.Authorization).toBe(`Bearer ${sessionStore.getState().accessToken?.accessToken}`);
    expect(call?.credentials).toBe('include');
  });

  it('ends the session on a 401, as every other GET does (spec 1 §4)', async () => {
    signIn();
    mockServer({
      'GET /api/support/attachments/5': () => json(401, errorBody(401, 'invalid_token', 'Token expired')),
    });
    await expect(apiDownload('api', '/support/attachments/5')).rejects.toMatchObject({
      status: 401,
      message: 'Token expired',
    });
    expect(sessionStore.getState()).toMatchObject({ phase: 'anonymous', accessToken: null });
  });

  it("throws the server's message on another failure, keeping the session", async () => {
    signIn();
    mockServer({
      'GET /api/support/attachments/5': () => json(404, errorBody(404, 'not_found', 'No such attachment')),
    });
    const failure = apiDownload('api', '/support/attachments/5');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'No such attachment',
    });
    expect(sessionStore.getState().phase).toBe('authenticated');
  });
});
