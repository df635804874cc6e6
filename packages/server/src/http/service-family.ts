import type { FastifyInstance } from 'fastify';
import { isBrowserNavigation, sendConsole } from './console-navigation.ts';
import { apiNotFound } from './not-found.ts';

export interface ServiceFamilyOptions {
  /** The built console's index.html, or null while it is not built. */
  consoleIndex: string | null;
  /** The family's routes, registered inside it so its hooks and 404 apply to them. */
  routes?: (family: FastifyInstance) => Promise<void>;
}

/**
 * One service family (`/auth`, `/api`, …), registered with its prefix: HAL+JSON bodies, and a JSON 404
 * for unknown paths under the prefix. A browser opening a console route that shares a family's prefix
 * (`/billing/...`) gets the console instead (when built). Encapsulated on purpose (no fastify-plugin):
 * neither the hook nor the 404 may reach the root or another family.
 */
export async function serviceFamily(family: FastifyInstance, options: ServiceFamilyOptions) {
  const { consoleIndex, routes } = options;
  family.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('content-type', 'application/hal+json; charset=utf-8');
    }
    return payload;
  });
  family.setNotFoundHandler((request, reply) =>
    consoleIndex && isBrowserNavigation(request)
      ? sendConsole(reply, consoleIndex)
      : apiNotFound(request, reply),
  );
  if (routes) await routes(family);
}
