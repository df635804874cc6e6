import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Contract §1.12: only needed when the console is served from another origin. Allowed origins are
 * echoed exactly with credentials, on errors too; preflights answer 204.
 */
export function corsHook(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (!origin || !allowed.has(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    reply.header('vary', 'Origin');
    // A console on another origin reads how long a 429 asks it to wait.
    reply.header('access-control-expose-headers', 'Retry-After');
    if (request.method === 'OPTIONS') {
      reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      reply.header('access-control-allow-headers', 'authorization, content-type');
      reply.header('access-control-max-age', '600');
      return reply.code(204).send();
    }
  };
}
