import fs from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A browser opening a page: GET or HEAD that accepts HTML and asks for no API type. The console's own
 * API calls (fetch, `Accept: *\/*` or JSON) never qualify, so they keep their family's JSON answers.
 */
export function isBrowserNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const accept = (request.headers.accept ?? '').toLowerCase();
  return accept.includes('text/html') && !accept.includes('application/json') && !accept.includes('+json');
}

/** The console's index.html, for client-side routes: the console decides what to show, 404 included. */
export function sendConsole(reply: FastifyReply, indexHtml: string) {
  reply.header('cache-control', 'no-cache');
  return reply.code(200).type('text/html; charset=utf-8').send(fs.createReadStream(indexHtml));
}
