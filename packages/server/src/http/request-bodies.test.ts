import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, testApp } from '../testing/test-app.ts';

// The JSON-only, prototype-safe body rules of json-body.ts and schema-first.ts, through the real server.

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(async () => {
  await t.close();
});

const signUpBody = (email: string) => ({
  name: 'Body Rules',
  email,
  password: 'Correct-Horse9',
  challengeToken: '',
  origin: 'app',
});

const post = (url: string, type: string | undefined, payload?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: type ? { 'content-type': type } : {},
    ...(payload !== undefined ? { payload } : {}),
  });

describe('request bodies', () => {
  it('refuses prototype keys with 400 in every family', async () => {
    const user = await t.signUp();
    const poisoned = [
      `{"name":"Acme","__proto__":{"admin":true}}`,
      `{"name":"Acme","constructor":{"prototype":{"admin":true}}}`,
    ];
    for (const payload of poisoned) {
      for (const url of ['/auth/organizations', '/api/accounts']) {
        const response = await t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/hal+json', authorization: `Bearer ${user.token}` },
          payload,
        });
        expect(response.statusCode).toBe(400);
        expect(response.json()).toMatchObject({ code: 400, error: 'bad_request', exception_context: {} });
      }
    }
    const signUp = await post(
      '/auth/users',
      'application/json',
      JSON.stringify(signUpBody(t.uniqueEmail())).replace('{', '{"__proto__":{"x":1},'),
    );
    expect(signUp.statusCode).toBe(400);
  });

  it('answers a body that is not JSON with 415', async () => {
    const body = JSON.stringify(signUpBody(t.uniqueEmail()));
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'multipart/form-data; boundary=x']) {
      const response = await post('/auth/users', type, body);
      expect(response.statusCode).toBe(415);
      expect(response.headers['content-type']).toBe('application/hal+json; charset=utf-8');
      expect(response.json()).toMatchObject({
        code: 415,
        error: 'unsupported_media_type',
        exception_context: {},
      });
    }
  });

  it('answers an empty JSON body where one is required with 400, not 422', async () => {
    for (const payload of ['', '  ']) {
      for (const type of ['application/json', 'application/hal+json']) {
        const response = await post('/auth/users', type, payload);
        expect(response.statusCode).toBe(400);
        expect(response.headers['content-type']).toBe('application/hal+json; charset=utf-8');
        expect(response.json()).toEqual({
          code: 400,
          error: 'bad_request',
          message: 'Request body must not be empty',
          exception_context: {},
        });
      }
    }
    // A body that is there but wrong is still the contract's 422.
    expect((await post('/auth/users', 'application/json', '{}')).statusCode).toBe(422);
  });
});
