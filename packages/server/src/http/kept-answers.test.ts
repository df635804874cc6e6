import { brotliDecompressSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createKeptAnswers } from './kept-answers.ts';

/** A route that keeps its answers, and counts how often it had to build one. */
async function keptRoute(maxBytes: number) {
  const app = Fastify();
  const kept = createKeptAnswers(maxBytes);
  const built: string[] = [];
  app.get<{ Params: { key: string }; Querystring: { rows?: string } }>('/kept/:key', (request, reply) =>
    kept.send(request, reply, request.params.key, async () => {
      built.push(request.params.key);
      return {
        key: request.params.key,
        rows: Array.from({ length: Number(request.query.rows ?? 300) }, (_, i) => ({ i })),
      };
    }),
  );
  await app.ready();
  return { app, kept, built };
}

describe('kept answers', () => {
  it('counts the JSON and each encoding sent, in memory of their own size', async () => {
    const { app, kept, built } = await keptRoute(10 * 1024 * 1024);
    const plain = await app.inject({ url: '/kept/a' });
    const br = await app.inject({ url: '/kept/a', headers: { 'accept-encoding': 'br' } });
    const gzip = await app.inject({ url: '/kept/a', headers: { 'accept-encoding': 'gzip' } });
    expect(built).toEqual(['a']);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(kept.size).toEqual({
      answers: 1,
      bytes: plain.rawPayload.length + br.rawPayload.length + gzip.rawPayload.length,
    });
    // Asked for as it is, as the route plugin allows.
    const asItIs = await app.inject({
      url: '/kept/a',
      headers: { 'accept-encoding': 'br', 'x-no-compression': '1' },
    });
    expect(asItIs.headers['content-encoding']).toBeUndefined();
    expect(asItIs.body).toBe(plain.body);
    await app.close();
  });

  it('keeps no more bytes than it is given, the least recently used going first', async () => {
    const { app, kept, built } = await keptRoute(20_000);
    const size = (await app.inject({ url: '/kept/first?rows=1000' })).rawPayload.length;
    expect(size).toBeGreaterThan(5_000);
    for (const key of ['second', 'third', 'fourth', 'fifth'])
      await app.inject({ url: `/kept/${key}?rows=1000` });
    expect(kept.size.bytes).toBeLessThanOrEqual(20_000);
    built.length = 0;
    await app.inject({ url: '/kept/fifth?rows=1000' });
    await app.inject({ url: '/kept/first?rows=1000' });
    expect(built).toEqual(['first']);
    await app.close();
  });
});
