import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from './errors.ts';
import { jsonBody } from './json-body.ts';

const app = Fastify();
beforeAll(async () => {
  await app.register(jsonBody);
  app.setErrorHandler(handleError);
  // Routes in a child scope: the parser must reach beyond the plugin that added it.
  await app.register(async (child) => {
    child.post('/echo', async (request) => ({ body: request.body ?? null }));
    child.delete('/echo', async (request) => ({ body: request.body ?? null }));
  });
});
afterAll(() => app.close());

const send = (payload: string, type = 'application/hal+json', method: 'POST' | 'DELETE' = 'POST') =>
  app.inject({ method, url: '/echo', headers: { 'content-type': type }, payload });

const badRequest = (message: string) => ({
  code: 400,
  error: 'bad_request',
  message,
  exception_context: {},
});

describe('JSON request bodies', () => {
  it.each(['application/json', 'application/hal+json', 'application/hal+json; charset=utf-8'])(
    'parses %s',
    async (type) => {
      const response = await send('{"name":"web","count":2}', type);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ body: { name: 'web', count: 2 } });
    },
  );

  it.each([
    ['an empty', ''],
    ['a blank', ' \n\t'],
  ])('takes %s body as no body, on POST and DELETE', async (_name, payload) => {
    for (const method of ['POST', 'DELETE'] as const) {
      const response = await send(payload, 'application/hal+json', method);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ body: null });
    }
  });

  it('refuses NUL characters, escaped or raw, with 400', async () => {
    for (const payload of ['{"name":"a\\u0000b"}', '{"name":"a\u0000b"}']) {
      const response = await send(payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(badRequest('Request body must not contain NUL characters'));
    }
  });

  it.each([
    ['__proto__', '{"name":"web","__proto__":{"admin":true}}'],
    ['nested __proto__', '{"tags":[{"__proto__":{"admin":true}}]}'],
    ['escaped __proto__', '{"\\u005f_proto__":{"admin":true}}'],
    ['constructor.prototype', '{"constructor":{"prototype":{"admin":true}}}'],
  ])('refuses a body with %s keys with 400 in the contract’s error body', async (_name, payload) => {
    const response = await send(payload, 'application/json');
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('application/hal+json; charset=utf-8');
    expect(response.json()).toEqual(
      badRequest('Request body must not contain "__proto__" or "constructor.prototype" keys'),
    );
  });

  it('keeps a plain "constructor" key', async () => {
    const response = await send('{"constructor":"web"}');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ body: { constructor: 'web' } });
  });

  it.each(['text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded'])(
    'answers a %s body with 415 in the contract’s error body',
    async (type) => {
      const response = await send('name=web', type);
      expect(response.statusCode).toBe(415);
      expect(response.headers['content-type']).toBe('application/hal+json; charset=utf-8');
      expect(response.json()).toEqual({
        code: 415,
        error: 'unsupported_media_type',
        message: 'Request body must be JSON (Content-Type: application/json or application/hal+json)',
        exception_context: {},
      });
    },
  );

  it('takes a POST with neither body nor content type', async () => {
    const response = await app.inject({ method: 'POST', url: '/echo' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ body: null });
  });

  it('answers invalid JSON with 400 in the contract’s error body', async () => {
    const response = await send('{nope', 'application/json');
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toBe('application/hal+json; charset=utf-8');
    expect(response.json()).toEqual(badRequest('Request body is not valid JSON'));
  });
});
