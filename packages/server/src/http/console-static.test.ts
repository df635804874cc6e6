import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleBuild } from '../testing/console-build.ts';
import { consoleIndexIn, consoleStatic } from './console-static.ts';

const INDEX = '<!doctype html><div id="root"></div>';

const webDist = consoleBuild(
  { 'index.html': INDEX, 'favicon.svg': '<svg/>', 'assets/app-abc123.js': 'console.log(1)' },
  'berth-static-',
);
let built: FastifyInstance;
let bare: FastifyInstance;

async function build(root: string) {
  const app = Fastify();
  app.get('/config.json', async () => ({ ok: true }));
  await app.register(consoleStatic, { webDist: root, consoleIndex: consoleIndexIn(root) });
  return app;
}

beforeAll(async () => {
  built = await build(webDist);
  bare = await build(path.join(webDist, 'missing'));
});
afterAll(async () => {
  await built.close();
  await bare.close();
});

describe('the static console', () => {
  it('finds index.html only where the console is built', () => {
    expect(consoleIndexIn(webDist)).toBe(path.join(webDist, 'index.html'));
    expect(consoleIndexIn(path.join(webDist, 'missing'))).toBeNull();
  });

  it('caches fingerprinted assets for a year, and other files not', async () => {
    const asset = await built.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await built.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).not.toContain('immutable');
  });

  it.each(['GET', 'HEAD'] as const)(
    'answers index.html, never cached, to %s of a console route',
    async (method) => {
      for (const url of ['/', '/apps/42', '/environments/1/apps?page=2']) {
        const page = await built.inject({ method, url });
        expect(page.statusCode).toBe(200);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.headers['cache-control']).toBe('no-cache');
        if (method === 'GET') expect(page.body).toBe(INDEX);
      }
    },
  );

  it('keeps the other routes, and answers other methods on unknown paths with a JSON 404', async () => {
    expect((await built.inject({ method: 'GET', url: '/config.json' })).json()).toEqual({ ok: true });
    const post = await built.inject({ method: 'POST', url: '/apps/42' });
    expect(post.statusCode).toBe(404);
    expect(post.headers['content-type']).toBe('application/hal+json; charset=utf-8');
    expect(post.json()).toEqual({
      code: 404,
      error: 'not_found',
      message: 'No route matches this POST request',
      exception_context: {},
    });
  });

  it('serves nothing while the console is not built: every unknown path is a JSON 404', async () => {
    for (const url of ['/', '/apps/42', '/assets/app-abc123.js']) {
      const response = await bare.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 404, error: 'not_found' });
    }
  });
});
