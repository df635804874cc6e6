import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { type AnswerEncoding, answerEncoding, encodeAnswer, varyOnEncoding } from './compression.ts';

/** At most this many answers, whatever their size. */
const MAX_ANSWERS = 2000;

/** One answer's JSON text and the encodings it has been sent in so far. */
interface KeptAnswer {
  json: Buffer;
  encoded: Partial<Record<AnswerEncoding, Buffer>>;
}

const sizeOf = (answer: KeptAnswer) =>
  answer.json.length + (answer.encoded.br?.length ?? 0) + (answer.encoded.gzip?.length ?? 0);

/**
 * A copy in memory of its own size: a small Buffer from a string or from zlib is a view of a larger
 * shared block (8 to 16 KB), which keeping it would hold without counting.
 */
function ownCopy(bytes: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/**
 * Answers kept by a key that names everything they depend on (for a costs page: the organization, its
 * cost version, the caller's readable environments, the page), so asking again sends the same bytes
 * without reading, serializing or compressing them again. The key must change whenever the answer
 * would: nothing here expires an answer by time. At most `maxBytes` are kept, the least recently used
 * going first; each process keeps its own.
 */
export function createKeptAnswers(maxBytes: number) {
  // Counted by bytes, and by entries too: a page of a few rows is small, and a caller can ask for many.
  const kept = new LRUCache<string, KeptAnswer>({
    maxSize: maxBytes,
    max: MAX_ANSWERS,
    sizeCalculation: sizeOf,
  });

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
        answer = { json: ownCopy(Buffer.from(reply.serialize(await build()) as string)), encoded: {} };
        kept.set(key, answer);
      }
      reply.type('application/hal+json; charset=utf-8');
      varyOnEncoding(reply);
      const encoding = answerEncoding(request, answer.json.length);
      if (!encoding) return reply.send(answer.json);
      let body = answer.encoded[encoding];
      if (!body) {
        body = ownCopy(encodeAnswer(answer.json, encoding));
        // A new entry, so the cache counts the encoding too (it sizes an entry when it is set).
        if (kept.has(key))
          kept.set(key, { json: answer.json, encoded: { ...answer.encoded, [encoding]: body } });
      }
      return reply.header('content-encoding', encoding).send(body);
    },
    /** How many answers are kept and the bytes they count (tests). */
    get size(): { answers: number; bytes: number } {
      return { answers: kept.size, bytes: kept.calculatedSize };
    },
  };
}
export type KeptAnswers = ReturnType<typeof createKeptAnswers>;
