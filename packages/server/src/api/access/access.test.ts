import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { isActionName } from '@berth/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes, routeShape as shape } from '../../testing/routes.ts';
import { type TestApp, type TestUser, testApp } from '../../testing/test-app.ts';
import { type AuthorizationEvent, authorizations } from './access.ts';

/**
 * Routes of the api family that authorize by no action, each with the reason. Every other route's
 * service must start an authorization by action (the access layer announces it on `authorizations`).
 */
const WITHOUT_ACTION: Record<string, string> = {
  // Contract §1.10: the capability URL of a log; the signed, expiring link is the permission.
  'GET /api/operation_logs/:': 'signed link',
  // Contract §1.10: an activity report's file, behind its signed, expiring link.
  'GET /api/activity_report_files/:': 'signed link',
  // Contract §1.11: the catalog of database engines is the same for every signed-in user.
  'GET /api/database_images': 'public catalog',
  'GET /api/database_images/:': 'public catalog',
  // spec 1 §9: the plans and their figures are the same for every signed-in user.
  'GET /api/plans': 'public catalog',
  'GET /api/plans/:': 'public catalog',
  // Support tickets are their requester's own (and superusers'), whatever organizations they belong to.
  'POST /api/support/upload': "the caller's own",
  'POST /api/support/create': "the caller's own",
  'GET /api/support/tickets': "the caller's own",
  'GET /api/support/tickets/:': "the caller's own, or a superuser",
  'GET /api/support/attachments/:': "the caller's own, or a superuser",
  // The family's OpenAPI document describes the API, never its data.
  'GET /api/openapi.json': 'public document',
};

/**
 * A body every write route accepts as far as its shape goes, so that the probe reaches the service of
 * routes that validate the body before anything else.
 */
const PROBE_BODY = {
  handle: 'probe',
  process_type: 'web',
  command: 'run',
  organization_id: '00000000-0000-4000-8000-000000000000',
  role: '00000000-0000-4000-8000-000000000000',
  scope: 'read',
  type: 'development',
  availability: 'active',
  keys: ['PROBE'],
};

let t: TestApp;
let prober: TestUser;
beforeAll(async () => {
  t = await testApp();
  await t.app.ready();
  prober = await t.signUp({ name: 'Prober' });
  await t.createOrganization(prober);
});
afterAll(() => t.close());

function apiRoutes(): string[] {
  return registeredRoutes(t.app.printRoutes({ commonPrefix: false }))
    .filter((route) => route.split(' ')[1]?.startsWith('/api/'))
    .map(shape);
}

/** The actions the services authorized by while answering one call of the prober. */
async function actionsOf(route: string): Promise<{ status: number; actions: string[] }> {
  const [method, path] = route.split(' ') as [Parameters<TestApp['call']>[0], string];
  // An id no row has: the probe checks that authorization starts, not what it concludes.
  const url = path.replaceAll('/:', '/987654321');
  const actions: string[] = [];
  const listen = (message: unknown) => {
    const event = message as AuthorizationEvent;
    if (event.userId === prober.id) actions.push(event.action);
  };
  subscribe(authorizations.name, listen);
  try {
    const response = await t.call(method, url, {
      token: prober.token,
      ...(method === 'GET' ? {} : { body: PROBE_BODY }),
    });
    return { status: response.statusCode, actions };
  } finally {
    unsubscribe(authorizations.name, listen);
  }
}

describe('authorization by action, route by route', () => {
  it('reads the routes it checks', () => {
    const routes = apiRoutes();
    expect(routes).toContain('GET /api/stacks/:');
    expect(routes).toContain('PUT /api/apps/:');
    expect(routes.length).toBeGreaterThan(60);
  });

  it('lists only registered routes as authorizing by no action', () => {
    const registered = new Set(apiRoutes());
    expect(Object.keys(WITHOUT_ACTION).filter((route) => !registered.has(route))).toEqual([]);
  });

  it('has every other api route authorize the caller by a known action in its service', async () => {
    const unauthorized: string[] = [];
    const unknown: string[] = [];
    for (const route of apiRoutes()) {
      if (Object.hasOwn(WITHOUT_ACTION, route)) continue;
      const { status, actions } = await actionsOf(route);
      if (actions.length === 0) unauthorized.push(`${route} (${status})`);
      for (const action of actions) if (!isActionName(action)) unknown.push(`${route}: ${action}`);
    }
    expect({ unauthorized, unknown }).toEqual({ unauthorized: [], unknown: [] });
  });

  it('sees a route that authorizes nothing', async () => {
    // The probe itself: a public route announces no action, so a route that forgot would be caught.
    expect((await actionsOf('GET /api/database_images')).actions).toEqual([]);
    expect((await actionsOf('GET /api/apps/:')).actions).toContain('app.read');
  });
});
