import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleError } from './errors.ts';
import { nulGuard } from './nul-guard.ts';

const app = Fastify();
beforeAll(async () => {
  await app.register(nulGuard);
  app.setErrorHandler(handleError);
  // A route in a child scope: the guard must reach beyond the plugin that added it.
  await app.register(async (child) => child.get('/things/:id', async (request) => request.params), {
    prefix: '/api',
  });
});
afterAll(() => app.close());

const get = (url: string) => app.inject({ method: 'GET', url });

describe('encoded NUL in the URL', () => {
  it.each(['/api/things/a%00b', '/api/things/a?q=%00', '/api/things/a?%00=1', '/api/nothing%00'])(
    'refuses %s with 400 before any route runs',
    async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 400,
        error: 'bad_request',
        message: 'The URL must not contain NUL characters',
        exception_context: {},
      });
    },
  );

  it('lets other URLs through, an encoded percent sign followed by 00 included', async () => {
    expect((await get('/api/things/42?q=a')).json()).toEqual({ id: '42' });
    expect((await get('/api/things/a%2500')).json()).toEqual({ id: 'a%00' });
  });
});
