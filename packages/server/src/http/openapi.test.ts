import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../testing/routes.ts';
import { type TestApp, testApp } from '../testing/test-app.ts';

// Every service family serves an OpenAPI 3.1 document generated from its routes' schemas. Each route
// Fastify registered in a family is in its document with a declared answer, and the document is valid.

const FAMILIES = ['/auth', '/api', '/metrics', '/billing'] as const;

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

type Operation = { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type OpenApiDocument = { openapi: string; paths?: Record<string, Record<string, Operation>> };

async function documentOf(family: string): Promise<OpenApiDocument> {
  const response = await t.call('GET', `${family}/openapi.json`);
  expect(response.statusCode).toBe(200);
  return response.json();
}

/** `/api/apps/:id` as OpenAPI writes it: `/api/apps/{id}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

describe('OpenAPI documents', () => {
  it.each(FAMILIES)('%s/openapi.json is a valid OpenAPI 3.1 document, without a token', async (family) => {
    const document = await documentOf(family);
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(
      document as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it.each(FAMILIES)(
    '%s documents every route it serves, each with the shape of its answer',
    async (family) => {
      const document = await documentOf(family);
      const routes = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter(
        (route) => route.split(' ')[1]?.startsWith(`${family}/`) && !route.endsWith('/openapi.json'),
      );
      const missing: string[] = [];
      for (const route of routes) {
        const [method = '', path = ''] = route.split(' ');
        const operation = document.paths?.[openApiPath(path).replace(/\/$/, '')]?.[method.toLowerCase()];
        const answers = Object.entries(operation?.responses ?? {}).filter(([status]) => /^[23]/.test(status));
        // A 204 and a redirect (a browser navigation's answer) have no body; any other success names its
        // content's schema.
        const described =
          answers.length > 0 &&
          answers.every(
            ([status, answer]) =>
              status === '204' ||
              /^3/.test(status) ||
              Object.values(answer.content ?? {}).some((c) => c.schema),
          );
        if (!described) missing.push(route);
      }
      expect(missing).toEqual([]);
    },
  );
});
