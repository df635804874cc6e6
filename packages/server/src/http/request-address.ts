import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';

/**
 * The address of the request being served, for the audit events its changes record (issue 41). The
 * services that make those changes take a caller, not a request; carrying the address beside the
 * request's work saves threading it through every signature. `request.ip` follows BERTH_TRUST_PROXY.
 */
const requestAddress = new AsyncLocalStorage<{ ip: string }>();

/** Runs the rest of each request's lifecycle with its address at hand. */
export function trackRequestAddress(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    requestAddress.run({ ip: request.ip }, done);
  });
}

/** The current request's address; null outside a request (a worker, a command, a test calling a service). */
export function currentRequestAddress(): string | null {
  return requestAddress.getStore()?.ip ?? null;
}
