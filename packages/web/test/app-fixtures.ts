import type { AppResource } from '@berth/core';
import { TEST_CONFIG } from './fixtures.ts';

// A server answer for an app, typed by core's wire shape: a fixture that drifts from what the server
// sends fails the type check.

export type AppFixture = Partial<Omit<AppResource, '_links'>> & {
  _links?: Partial<AppResource['_links']>;
  /** The environment (wire: account) the app belongs to. */
  environmentId?: string;
};

/** contract §4.3 app; by default a provisioned git-push app of environment 10, embedding nothing. */
export function appResourceFixture({ environmentId = '10', ...fields }: AppFixture = {}): AppResource {
  const api = TEST_CONFIG.apiUrl;
  const id = fields.id ?? '1';
  const handle = fields.handle ?? 'shop';
  const createdAt = fields.created_at ?? '2026-01-01T00:00:00.000Z';
  return {
    _type: 'app',
    git_repo: `git@on-berth.localhost:production/${handle}.git`,
    deployment_method: '',
    status: 'provisioned',
    updated_at: createdAt,
    ...fields,
    id,
    handle,
    created_at: createdAt,
    _links: {
      self: { href: `${api}/apps/${id}` },
      account: { href: `${api}/accounts/${environmentId}` },
      services: { href: `${api}/apps/${id}/services` },
      deployments: { href: `${api}/apps/${id}/deployments` },
      operations: { href: `${api}/apps/${id}/operations` },
      service_definitions: { href: `${api}/apps/${id}/service_definitions` },
      ...fields._links,
    },
  };
}
