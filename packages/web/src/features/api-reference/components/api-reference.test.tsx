import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody, HOST } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import type { JsonSchema, OpenApiDocument } from '../openapi.ts';

// What the server's generator produces from the operation routes' zod schemas (http/openapi.ts),
// cut down to two operations: components by $ref, `anyOf [X, null]` for nullable, `security: []` for public.

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const jsonBody = (schema: JsonSchema) => ({ required: true, content: { 'application/json': { schema } } });

const apiDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Berth API', description: 'Stacks, environments, apps and their operations.', version: '1' },
  servers: [{ url: `${HOST}/api` }],
  security: [{ bearer: [] }],
  tags: [{ name: 'Operations', description: 'Every change to a resource.' }],
  components: {
    schemas: {
      Operation: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The operation id' },
          _type: { type: 'string', const: 'operation' },
          status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed'] },
          container_count: nullable({ type: 'integer' }),
          previous_instance_profile: nullable({ type: 'string' }),
          env: nullable({ type: 'object', additionalProperties: nullable({ type: 'string' }) }),
          _links: {
            type: 'object',
            properties: {
              self: { type: 'object', properties: { href: { type: 'string' } }, required: ['href'] },
              user: { type: 'object', properties: { href: { type: 'string' } }, required: ['href'] },
            },
            required: ['self'],
          },
        },
        required: ['id', '_type', 'status', 'container_count', 'previous_instance_profile', 'env', '_links'],
        additionalProperties: false,
      },
      Error: {
        type: 'object',
        properties: { error: { type: 'string' }, message: { type: 'string' } },
        required: ['error', 'message'],
      },
    },
  },
  paths: {
    '/api/operations/{id}': {
      get: {
        operationId: 'getOperation',
        tags: ['Operations'],
        summary: 'Show an operation',
        parameters: [
          {
            name: 'id',
            in: 'path',
            required: true,
            description: 'The operation id',
            schema: { type: 'string', pattern: '^\\d+$' },
          },
        ],
        responses: {
          '200': {
            description: 'The operation',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Operation' } } },
          },
          '404': {
            description: 'Not found',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        },
      },
    },
    '/api/services/{id}/operations': {
      post: {
        operationId: 'createServiceOperation',
        tags: ['Operations'],
        summary: 'Scale or restart a service',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: jsonBody({
          type: 'object',
          properties: {
            type: { type: 'string', enum: ['scale', 'restart'] },
            container_count: { type: 'integer', minimum: 0, maximum: 32 },
          },
          required: ['type'],
        }),
        responses: {
          '201': {
            description: 'The queued operation',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Operation' } } },
          },
        },
      },
    },
  },
};

const authDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Berth Auth', description: 'Users, tokens and organizations.', version: '1' },
  servers: [{ url: `${HOST}/auth` }],
  security: [{ bearer: [] }],
  paths: {
    '/auth/tokens': {
      post: {
        tags: ['Tokens'],
        summary: 'Log in',
        security: [],
        requestBody: jsonBody({
          type: 'object',
          properties: { username: { type: 'string', format: 'email' }, password: { type: 'string' } },
          required: ['username', 'password'],
        }),
        responses: { '201': { description: 'The new token' } },
      },
    },
  },
};

const billingDocument: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Berth Billing', version: '1' },
  paths: {},
};

function serveDocuments() {
  return mockServer({
    'GET /auth/openapi.json': () => json(200, authDocument),
    'GET /api/openapi.json': () => json(200, apiDocument),
    'GET /metrics/openapi.json': () => json(503, errorBody(503, 'unavailable', 'Metrics are resting')),
    'GET /billing/openapi.json': () => json(200, billingDocument),
  });
}

describe('API reference (issue 8)', () => {
  it('shows each family, its operations by tag, and which ones need a token, signed out', async () => {
    const server = serveDocuments();
    renderApp('/api-reference');

    const api = await screen.findByRole('region', { name: 'Berth API' });
    expect(within(api).getByText('Stacks, environments, apps and their operations.')).toBeInTheDocument();
    const operations = within(api).getByRole('region', { name: 'Operations' });
    const show = within(operations).getByRole('article', { name: 'GET /api/operations/{id}' });
    expect(within(show).getByText('Show an operation')).toBeInTheDocument();
    expect(within(show).getByText('Token required')).toBeInTheDocument();

    const auth = screen.getByRole('region', { name: 'Berth Auth' });
    const login = within(within(auth).getByRole('region', { name: 'Tokens' })).getByRole('article', {
      name: 'POST /auth/tokens',
    });
    expect(within(login).getByText('Public')).toBeInTheDocument();

    // A family that does not answer says so, and the others stay readable.
    const metrics = screen.getByRole('region', { name: 'Metrics' });
    expect(await within(metrics).findByText('Error: Metrics are resting')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Berth Billing' })).toBeInTheDocument();

    // The documents are public: fetched without a bearer.
    expect(server.calls.every((call) => !call.headers.Authorization)).toBe(true);
    // Signed out, the page offers the way in rather than back.
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('lists parameters, the request body and the answers with resolved component schemas', async () => {
    serveDocuments();
    renderApp('/api-reference');
    const user = userEvent.setup();

    const show = await screen.findByRole('article', { name: 'GET /api/operations/{id}' });
    await user.click(within(show).getByText('Show an operation'));
    const parameters = within(show).getByRole('table');
    expect(
      within(parameters)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['id required', 'path', 'string matches ^\\d+$', 'The operation id']);

    const ok = within(show).getByRole('region', { name: 'Response 200 schema' });
    expect(within(ok).getByText('Operation')).toBeInTheDocument();
    const fieldRow = (name: string) => within(ok).getByText(name, { selector: 'code' }).closest('li');
    expect(fieldRow('status')).toHaveTextContent(
      'status string required one of "queued", "running", "succeeded", "failed"',
    );
    expect(fieldRow('container_count')).toHaveTextContent('container_count integer required nullable');
    expect(fieldRow('previous_instance_profile')).toHaveTextContent('string required nullable');
    expect(fieldRow('env')).toHaveTextContent('map of string');
    // Nested objects wait behind a disclosure.
    const links = fieldRow('_links');
    expect(links).not.toBeNull();
    await user.click(within(links as HTMLElement).getByText('2 fields of _links'));
    expect(
      within(links as HTMLElement)
        .getByText('user', { selector: 'code' })
        .closest('li'),
    ).toHaveTextContent('user object optional');
    expect(within(show).getByRole('region', { name: 'Response 404 schema' })).toHaveTextContent('Error');

    const create = screen.getByRole('article', { name: 'POST /api/services/{id}/operations' });
    await user.click(within(create).getByText('Scale or restart a service'));
    const body = within(create).getByRole('region', { name: 'Request body schema' });
    expect(within(body).getByText('type', { selector: 'code' }).closest('li')).toHaveTextContent(
      'type string required one of "scale", "restart"',
    );
    expect(within(body).getByText('container_count', { selector: 'code' }).closest('li')).toHaveTextContent(
      'integer optional ≥ 0 · ≤ 32',
    );
  });

  it('filters operations by method, path, tag or summary, keeping the filter in the URL', async () => {
    serveDocuments();
    const { router } = renderApp('/api-reference');
    const user = userEvent.setup();
    await screen.findByRole('article', { name: 'GET /api/operations/{id}' });

    await user.type(screen.getByRole('searchbox', { name: 'Filter operations' }), 'post scale');
    expect(screen.queryByRole('article', { name: 'GET /api/operations/{id}' })).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'POST /api/services/{id}/operations' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'POST /auth/tokens' })).not.toBeInTheDocument();
    expect(screen.getByText('No Auth operations match the filter.')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?filter=post+scale');
  });

  it('offers the way back to the console when signed in', async () => {
    signIn();
    serveDocuments();
    renderApp('/api-reference');
    expect(await screen.findByRole('link', { name: 'Back to console' })).toHaveAttribute('href', '/');
  });
});
