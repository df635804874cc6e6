import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { type AnswerEncoding, answerEncoding, encodeAnswer, varyOnEncoding } from './compression.ts';

/** One answer's JSON text and the encodings it has been sent in so far. */
interface KeptAnswer {
  json: Buffer;
  encoded: Partial<Record<AnswerEncoding, Buffer>>;
}

const sizeOf = (answer: KeptAnswer) =>
  answer.json.length + (answer.encoded.br?.length ?? 0) + (answer.encoded.gzip?.length ?? 0);

/**
 * Answers kept by a key that names everything they depend on (for a costs page: the organization, its
 * cost version, the caller's readable environments, the page), so asking again sends the same bytes
 * without reading, serializing or compressing them again. The key must change whenever the answer
 * would: nothing here expires an answer by time. At most `maxBytes` are kept, the least recently used
 * going first; each process keeps its own.
 */
export function createKeptAnswers(maxBytes: number) {
  const kept = new LRUCache<string, KeptAnswer>({ maxSize: maxBytes, sizeCalculation: sizeOf });

  return {
    /**
     * Sends the answer kept under `key`, or builds it, serializes it with the route's own serializer
     * (which holds it against the route's response schema when responses are checked) and keeps it.
     * Compressed like every other answer, each encoding once.
     */
    async send(
      request: FastifyRequest,
      reply: FastifyReply,
      key: string,
      build: () => Promise<unknown>,
    ): Promise<FastifyReply> {
      let answer = kept.get(key);
      if (!answer) {
        answer = { json: Buffer.from(reply.serialize(await build()) as string), encoded: {} };
        kept.set(key, answer);
      }
      reply.type('application/hal+json; charset=utf-8');
      varyOnEncoding(reply);
      const encoding = answerEncoding(request, answer.json.length);
      if (!encoding) return reply.send(answer.json);
      let body = answer.encoded[encoding];
      if (!body) {
        body = encodeAnswer(answer.json, encoding);
        answer.encoded[encoding] = body;
        // Counted again with the new encoding (an answer too large to keep is simply not kept).
        if (kept.has(key)) kept.set(key, answer);
      }
      return reply.header('content-encoding', encoding).send(body);
    },
    /** How many answers are kept (tests). */
    get size(): number {
      return kept.size;
    },
  };
}
export type KeptAnswers = ReturnType<typeof createKeptAnswers>;
