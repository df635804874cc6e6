import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {
  ScimConfigurationRow,
  ScimConfigurationsService,
} from '../auth/scim-configurations/scim-configurations.service.ts';
import { jsonTextParser } from '../http/json-body.ts';
import { handleScimError, SCIM_CONTENT_TYPE, ScimError, sendScimError } from './scim-errors.ts';
import type { ScimGroupsService } from './scim-groups.service.ts';
import { groupFromBody, groupPatch, userFromBody, userPatch } from './scim-input.ts';
import { listQuery, projection } from './scim-query.ts';
import { toScimGroup, toScimUser } from './scim-resources.ts';
import { listResponse, resourceTypes, schemas, serviceProviderConfig } from './scim-schemas.ts';
import type { ScimUsersService } from './scim-users.service.ts';

export interface ScimFamilyOptions {
  /** The absolute URL of /scim/v2, for Location headers and meta.location. */
  baseUrl: string;
  configurations: Pick<ScimConfigurationsService, 'authenticate'>;
  users: ScimUsersService;
  groups: ScimGroupsService;
}

const unauthorized = () => new ScimError(401, 'A valid SCIM bearer token is required');

/**
 * The SCIM 2.0 service (RFC 7643/7644) at /scim/v2, a family of its own (design): it answers only to an
 * organization's provisioning token, from its own hook (a user's token is refused here, and a SCIM token
 * is no JWT, so every other family refuses it), reads application/scim+json and application/json, and
 * answers application/scim+json, errors included, for unknown paths too (never the console's page).
 * Encapsulated on purpose (no fastify-plugin): none of this reaches another family.
 */
export async function scimFamily(scim: FastifyInstance, options: ScimFamilyOptions) {
  const { baseUrl, configurations, users, groups } = options;
  const configurationOf = new WeakMap<FastifyRequest, ScimConfigurationRow>();

  scim.addContentTypeParser('application/scim+json', { parseAs: 'string' }, jsonTextParser(scim));
  scim.setErrorHandler(handleScimError);
  scim.setNotFoundHandler((_request, reply) =>
    sendScimError(reply, new ScimError(404, 'No SCIM resource matches this request')),
  );

  // Every request, unknown paths included, names its organization by its token before anything is read.
  scim.addHook('onRequest', async (request) => {
    const header = request.headers.authorization ?? '';
    // A prefix test and a slice, as the auth guard does: no pattern runs over the header.
    const bearer = /^bearer\s/i.test(header) ? header.slice(7).trim() : '';
    const configuration = bearer ? await configurations.authenticate(bearer) : null;
    if (!configuration) throw unauthorized();
    configurationOf.set(request, configuration);
  });
  scim.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json'))
      reply.header('content-type', SCIM_CONTENT_TYPE);
    return payload;
  });

  function configuration(request: FastifyRequest): ScimConfigurationRow {
    const found = configurationOf.get(request);
    if (!found) throw unauthorized();
    return found;
  }

  const created = (reply: FastifyReply, location: string, body: unknown) =>
    reply.code(201).header('location', location).send(body);

  // Discovery (RFC 7644 §4).
  scim.get('/ServiceProviderConfig', async () => serviceProviderConfig(baseUrl));
  scim.get('/ResourceTypes', async () => {
    const types = resourceTypes(baseUrl);
    return listResponse(types, types.length, 1);
  });
  scim.get<{ Params: { id: string } }>('/ResourceTypes/:id', async (request) => {
    const found = resourceTypes(baseUrl).find((type) => type.id === request.params.id);
    if (!found) throw new ScimError(404, 'No such resource type');
    return found;
  });
  scim.get('/Schemas', async () => {
    const all = schemas(baseUrl);
    return listResponse(all, all.length, 1);
  });
  scim.get<{ Params: { id: string } }>('/Schemas/:id', async (request) => {
    const found = schemas(baseUrl).find((schema) => schema.id === request.params.id);
    if (!found) throw new ScimError(404, 'No such schema');
    return found;
  });
  // Bulk is not offered (ServiceProviderConfig says so): RFC 7644 §3.7 answers 501.
  scim.post('/Bulk', async () => {
    throw new ScimError(501, 'Bulk operations are not supported');
  });

  // Users.
  scim.get('/Users', async (request) => {
    const { organizationId } = configuration(request);
    const { filter, startIndex, count } = listQuery(request.query);
    const shown = projection(request.query);
    const page = await users.list(organizationId, filter, startIndex, count);
    return listResponse(
      page.rows.map(({ row, groups: userGroups }) => shown.apply(toScimUser(row, userGroups, baseUrl))),
      page.total,
      startIndex,
    );
  });
  scim.post('/Users', async (request, reply) => {
    const input = userFromBody(request.body, false);
    const { row, groups: userGroups } = await users.create(configuration(request), input);
    const resource = toScimUser(row, userGroups, baseUrl);
    return created(reply, resource.meta.location, resource);
  });
  scim.get<{ Params: { id: string } }>('/Users/:id', async (request) => {
    const { row, groups: userGroups } = await users.get(
      configuration(request).organizationId,
      request.params.id,
    );
    return projection(request.query).apply(toScimUser(row, userGroups, baseUrl));
  });
  scim.put<{ Params: { id: string } }>('/Users/:id', async (request) => {
    const changes = userFromBody(request.body, true);
    const { row, groups: userGroups } = await users.update(
      configuration(request),
      request.params.id,
      changes,
    );
    return toScimUser(row, userGroups, baseUrl);
  });
  scim.patch<{ Params: { id: string } }>('/Users/:id', async (request) => {
    const changes = userPatch(request.body);
    const { row, groups: userGroups } = await users.update(
      configuration(request),
      request.params.id,
      changes,
    );
    return toScimUser(row, userGroups, baseUrl);
  });
  scim.delete<{ Params: { id: string } }>('/Users/:id', async (request, reply) => {
    await users.remove(configuration(request), request.params.id);
    return reply.code(204).send();
  });

  // Groups.
  scim.get('/Groups', async (request) => {
    const { organizationId } = configuration(request);
    const { filter, startIndex, count } = listQuery(request.query);
    const shown = projection(request.query);
    const page = await groups.list(organizationId, filter, startIndex, count, shown.includes('members'));
    return listResponse(
      page.rows.map(({ role, members }) => shown.apply(toScimGroup(role, members, baseUrl))),
      page.total,
      startIndex,
    );
  });
  scim.post('/Groups', async (request, reply) => {
    const input = groupFromBody(request.body);
    const { role, members } = await groups.create(configuration(request), input);
    const resource = toScimGroup(role, members, baseUrl);
    return created(reply, resource.meta.location, resource);
  });
  scim.get<{ Params: { id: string } }>('/Groups/:id', async (request) => {
    const shown = projection(request.query);
    const { role, members } = await groups.get(
      configuration(request).organizationId,
      request.params.id,
      shown.includes('members'),
    );
    return shown.apply(toScimGroup(role, members, baseUrl));
  });
  scim.put<{ Params: { id: string } }>('/Groups/:id', async (request) => {
    const input = groupFromBody(request.body);
    const { role, members } = await groups.replace(configuration(request), request.params.id, input);
    return toScimGroup(role, members, baseUrl);
  });
  // Answered without a body (RFC 7644 §3.5.2 allows 204): a large group's members are not sent back.
  scim.patch<{ Params: { id: string } }>('/Groups/:id', async (request, reply) => {
    const changes = groupPatch(request.body);
    await groups.patch(configuration(request), request.params.id, changes);
    return reply.code(204).send();
  });
  scim.delete<{ Params: { id: string } }>('/Groups/:id', async (request, reply) => {
    await groups.remove(configuration(request), request.params.id);
    return reply.code(204).send();
  });
}
