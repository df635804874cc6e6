import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

export interface OpenApiOptions {
  /** The family's title in the document (`Berth API`, `Berth Auth`, …). */
  title: string;
  description: string;
  /** Where the family is served, absolute (its routes' paths carry the prefix). */
  serverUrl: string;
}

/**
 * The family's OpenAPI 3.1 document, generated from its routes' schemas and served at
 * `<prefix>/openapi.json` (public: it describes the API, never its data). Registered before the routes,
 * inside the family, so it sees exactly that family's routes.
 */
export async function openApiDocument(family: FastifyInstance, options: OpenApiOptions) {
  await family.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, description: options.description, version: '1' },
      servers: [{ url: options.serverUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    // A public route needs no token: its operation says so instead of inheriting the bearer requirement.
    transform: (route) => {
      const transformed = jsonSchemaTransform(route);
      return route.route.config?.public
        ? { ...transformed, schema: { ...transformed.schema, security: [] } }
        : transformed;
    },
    transformObject: jsonSchemaTransformObject,
  });
  family.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(family.swagger()),
  );
}
