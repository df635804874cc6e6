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

type Document = ReturnType<typeof jsonSchemaTransformObject>;

/** Every `#/components/schemas/<name>` a part of the document refers to. */
function referencedNames(part: unknown, into: Set<string>): void {
  if (Array.isArray(part)) for (const item of part) referencedNames(item, into);
  else if (part && typeof part === 'object') {
    for (const [key, value] of Object.entries(part)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        into.add(value.slice('#/components/schemas/'.length));
      } else referencedNames(value, into);
    }
  }
}

/**
 * Component schemas come from one registry shared by every family; a family's document keeps the ones
 * its routes reach (directly or through other components), not every family's.
 */
function onlyReferencedSchemas(generated: Document): Document {
  const document = generated as { paths?: unknown; components?: { schemas?: Record<string, unknown> } };
  const all = document.components?.schemas ?? {};
  const kept = new Set<string>();
  referencedNames(document.paths, kept);
  for (let grew = true; grew; ) {
    const before = kept.size;
    for (const name of [...kept]) referencedNames(all[name], kept);
    grew = kept.size > before;
  }
  const schemas = Object.fromEntries(Object.entries(all).filter(([name]) => kept.has(name)));
  return { ...document, components: { ...document.components, schemas } } as unknown as Document;
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
    transformObject: (document) => onlyReferencedSchemas(jsonSchemaTransformObject(document)),
  });
  family.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(family.swagger()),
  );
}
