import type { FastifyInstance } from 'fastify';
import type { AuthGuard } from './authenticate.ts';
import { type ConsoleDocument, isBrowserNavigation } from './console-navigation.ts';
import { apiNotFound } from './not-found.ts';
import { type OpenApiOptions, openApiDocument } from './openapi.ts';
import { callerBeforeInput } from './schema-first.ts';

export interface ServiceFamilyOptions {
  /** The built console's index.html, or null while it is not built. */
  consoleDocument: ConsoleDocument | null;
  /** Checks each route's caller before its input (routes say `public` or what they ask in options). */
  guard: AuthGuard;
  /** The family's OpenAPI document, served at `<prefix>/openapi.json`. */
  openapi: OpenApiOptions;
  /** The family's routes, registered inside it so its hooks, 404 and document apply to them. */
  routes?: (family: FastifyInstance) => Promise<void>;
}

/**
 * One service family (`/auth`, `/api`, …), registered with its prefix: HAL+JSON bodies, and a JSON 404
 * for unknown paths under the prefix. A browser opening a console route that shares a family's prefix
 * (`/billing/...`) gets the console instead (when built). Encapsulated on purpose (no fastify-plugin):
 * neither the hook nor the 404 may reach the root or another family.
 */
export async function serviceFamily(family: FastifyInstance, options: ServiceFamilyOptions) {
  const { consoleDocument, routes } = options;
  family.addHook('preValidation', callerBeforeInput(options.guard));
  family.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('content-type', 'application/hal+json; charset=utf-8');
    }
    return payload;
  });
  family.setNotFoundHandler((request, reply) =>
    consoleDocument && isBrowserNavigation(request)
      ? consoleDocument.send(request, reply)
      : apiNotFound(request, reply),
  );
  await openApiDocument(family, options.openapi);
  if (routes) await routes(family);
}
