import type { LightMyRequestResponse } from 'fastify';
import type { TestApp, TestUser } from './test-app.ts';

/** An organization with provisioning set up through the API: its owner, a default role and the token. */
export interface Provisioning {
  owner: TestUser;
  organizationId: string;
  defaultRoleId: string;
  configurationId: string;
  token: string;
}

/**
 * Signs an owner up, makes their organization and a "Developers" role, sets provisioning up with that
 * default role and generates its token, each through the routes the console calls.
 */
export async function setUpProvisioning(t: TestApp, name = 'Acme Inc'): Promise<Provisioning> {
  const owner = await t.signUp({ name: 'Olive Owner' });
  const organization = await t.createOrganization(owner, name);
  const role = await t.call('POST', `/auth/organizations/${organization.id}/roles`, {
    token: owner.token,
    body: { name: 'Developers', type: 'platform_user' },
  });
  if (role.statusCode !== 201) throw new Error(`role failed: ${role.body}`);
  const configuration = await t.call('POST', '/auth/scim_configurations', {
    token: owner.token,
    body: {
      scim_configuration: {
        organization_id: organization.id,
        default_role_id: role.json().id,
        unique_identifier: 'email',
      },
    },
  });
  if (configuration.statusCode !== 201) throw new Error(`configuration failed: ${configuration.body}`);
  const generated = await t.call('POST', '/auth/scim_configurations/generate_token', {
    token: await t.elevate(owner),
    body: { scim_configuration_id: configuration.json().id, user_id: owner.id },
  });
  if (generated.statusCode !== 200) throw new Error(`token failed: ${generated.body}`);
  return {
    owner,
    organizationId: organization.id,
    defaultRoleId: role.json().id,
    configurationId: configuration.json().id,
    token: generated.json().token,
  };
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A request to /scim/v2 as an identity provider sends it: its bearer token, application/scim+json. */
export function scimClient(t: TestApp, token: string) {
  return (
    method: Method,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url: `/scim/v2${path}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/scim+json' } : {}),
        accept: 'application/scim+json',
        ...headers,
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
}

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const LIST_RESPONSE = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
