import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Caller } from '../auth/tokens/token.service.ts';
import { consoleBuild } from '../testing/console-build.ts';
import type { AuthGuard } from './authenticate.ts';
import { consoleDocument as consoleDocumentOf } from './console-navigation.ts';
import { handleError, unauthorized } from './errors.ts';
import { schemaFirst } from './schema-first.ts';
import { serviceFamily } from './service-family.ts';

const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';
const HAL = 'application/hal+json; charset=utf-8';

const webDist = consoleBuild({ 'index.html': '<div id="root"></div>' }, 'berth-family-');
let withConsole: FastifyInstance;
let withoutConsole: FastifyInstance;

// A guard that knows one caller: the request that says `authorization: Bearer ok`.
const guard = {
  optionalCaller: async () => null,
  requireCaller: async (request: FastifyRequest) => {
    if (request.headers.authorization !== 'Bearer ok') throw unauthorized();
    return {} as Caller;
  },
} as unknown as AuthGuard;
const openapi = { title: 'Fam', description: 'A test family.', serverUrl: 'http://berth.test' };

async function build(consoleIndex: string | null) {
  const consoleDocument = consoleIndex
    ? consoleDocumentOf(consoleIndex, () => ({ appUrl: 'http://berth.test' }))
    : null;
  const app = Fastify();
  app.setErrorHandler(handleError);
  schemaFirst(app, { checkResponses: true });
  app.get('/plain', async () => ({ where: 'root' }));
  await app.register(serviceFamily, {
    prefix: '/fam',
    consoleDocument,
    guard,
    openapi,
    routes: async (family) => {
      const open = { config: { public: true } };
      family.get('/thing', open, async () => ({ where: 'family' }));
      family.get('/text', open, async (_request, reply) => reply.type('text/plain').send('hello'));
      family.post(
        '/named',
        { schema: { body: z.strictObject({ name: z.string().min(1, 'name must not be empty') }) } },
        async () => ({ ok: true }),
      );
    },
  });
  // A family without routes still answers under its prefix.
  await app.register(serviceFamily, { prefix: '/empty', consoleDocument, guard, openapi });
  return app;
}

beforeAll(async () => {
  withConsole = await build(path.join(webDist, 'index.html'));
  withoutConsole = await build(null);
});
afterAll(async () => {
  await withConsole.close();
  await withoutConsole.close();
});

const get = (app: FastifyInstance, url: string, accept?: string) =>
  app.inject({ method: 'GET', url, headers: accept ? { accept } : {} });

describe('a service family', () => {
  it('answers its JSON as HAL+JSON and leaves other types alone', async () => {
    const thing = await get(withConsole, '/fam/thing');
    expect(thing.headers['content-type']).toBe(HAL);
    expect(thing.json()).toEqual({ where: 'family' });
    expect((await get(withConsole, '/fam/text')).headers['content-type']).toContain('text/plain');
  });

  it('keeps its hook and 404 to itself: the root is untouched', async () => {
    const plain = await get(withConsole, '/plain');
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const unknown = await get(withConsole, '/elsewhere', BROWSER);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'Not Found', statusCode: 404 });
  });

  it.each(['/fam/nothing', '/empty', '/empty/deeper'])(
    'answers an unknown path %s with the contract’s JSON 404',
    async (url) => {
      for (const app of [withConsole, withoutConsole]) {
        const response = await get(app, url, 'application/json');
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toBe(HAL);
        expect(response.json()).toEqual({
          code: 404,
          error: 'not_found',
          message: 'No route matches this GET request',
          exception_context: {},
        });
      }
    },
  );

  it('opens the console for a browser navigation under its prefix, when the console is built', async () => {
    const page = await get(withConsole, '/fam/some/page', BROWSER);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).toBe(
      '<script id="berth-config" type="application/json">{"appUrl":"http://berth.test"}</script><div id="root"></div>',
    );
    const post = await withConsole.inject({
      method: 'POST',
      url: '/fam/some/page',
      headers: { accept: BROWSER },
    });
    expect(post.statusCode).toBe(404);
    expect((await get(withoutConsole, '/fam/some/page', BROWSER)).json()).toMatchObject({
      error: 'not_found',
    });
  });
});

describe('schema-first routes in a family', () => {
  const post = (token: string | null, body: unknown) =>
    withoutConsole.inject({
      method: 'POST',
      url: '/fam/named',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      payload: JSON.stringify(body),
    });

  it('refuses a caller without a token before reading the body', async () => {
    const response = await post(null, { name: '' });
    expect(response.statusCode).toBe(401);
  });

  it('answers a bad body with the contract 422 and the schema message', async () => {
    const response = await post('ok', { name: '' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      error: 'unprocessable_entity',
      message: 'name must not be empty',
      details: { name: ['name must not be empty'] },
    });
    expect((await post('ok', { name: 'x' })).json()).toEqual({ ok: true });
  });

  it('serves each family its own OpenAPI document', async () => {
    const doc = (await get(withoutConsole, '/fam/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/fam/thing', '/fam/named']));
    expect(doc.paths['/fam/openapi.json']).toBeUndefined();
    const empty = (await get(withoutConsole, '/empty/openapi.json')).json();
    expect(empty.paths ?? {}).toEqual({});
  });
});
