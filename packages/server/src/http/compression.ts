import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

export type AnswerEncoding = 'br' | 'gzip';
const ENCODINGS: AnswerEncoding[] = ['br', 'gzip'];
/** Quality 4, as @fastify/compress uses: a 3 MB list in tens of milliseconds; 11 would take seconds. */
const BROTLI_QUALITY = 4;
/**
 * Answers up to this size are compressed in one synchronous call (a 400 KB costs list: 1.2 ms), larger
 * ones through zlib's stream. The plugin's default on two cores is 8 KB: a 400 KB answer then went
 * through 25 chunks of the thread pool, which added 7 ms to the median and 30 to the tail (issue 19).
 */
export const SYNC_COMPRESSION_MAX_BYTES = 1024 * 1024;

/**
 * Text answers compressed on the fly, brotli else gzip, with `Vary: Accept-Encoding` (@fastify/compress).
 * The console's files are compressed at build time instead (see console-static.ts), and an answer that
 * already has a Content-Encoding is left alone. Requests are never decompressed: a small compressed
 * body must not become a large one inside the server. Register before any route, since the plugin
 * attaches itself to each route as it is declared.
 */
export async function compression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    encodings: ENCODINGS,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    syncThreshold: SYNC_COMPRESSION_MAX_BYTES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    globalDecompression: false,
  });
}

/** The encoding an answer of `size` bytes goes in for this request: brotli, else gzip, else none. */
export function answerEncoding(request: FastifyRequest, size: number): AnswerEncoding | null {
  // As the route plugin: a client may ask for an answer as it is.
  if (size < COMPRESSION_THRESHOLD_BYTES || request.headers['x-no-compression'] !== undefined) return null;
  return negotiate(request.headers['accept-encoding'] ?? '', ENCODINGS) ?? null;
}

/** A body compressed as the route plugin compresses answers. */
export function encodeAnswer(body: Buffer, encoding: AnswerEncoding): Buffer {
  if (encoding === 'br') {
    return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });
  }
  return gzipSync(body);
}

/** Adds Accept-Encoding to the answer's Vary header, as the route plugin does. */
export function varyOnEncoding(reply: FastifyReply): FastifyReply {
  const vary = reply.getHeader('vary');
  return reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
}

/**
 * Sends a text answer compressed as the route plugin would, for handlers that are not routes (the
 * not-found handlers that serve the console's page), which @fastify/compress does not reach.
 */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, text: string): FastifyReply {
  const body = Buffer.from(text);
  varyOnEncoding(reply);
  const encoding = answerEncoding(request, body.length);
  if (!encoding) return reply.send(body);
  return reply.header('content-encoding', encoding).send(encodeAnswer(body, encoding));
}
