import {
  createScimConfigurationInput,
  generatedScimToken,
  generateScimTokenInput,
  noContent,
  scimConfigurationCollection,
  scimConfigurationResource,
  updateScimConfigurationInput,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FamilyUrls } from '../../config.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseBody } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { bodyCheckedByService, idRoute, route } from '../../http/route-schemas.ts';
import { toScimConfigurationHal } from './scim-configurations.hal.ts';
import type { ScimConfigurationsService } from './scim-configurations.service.ts';

/**
 * Provisioning's configuration (contract §5.4): list, create, change the default role, delete, and
 * generate the bearer token for /scim/v2 (shown once). The service says who may (spec 1 §6).
 */
export async function scimConfigurationsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; guard: AuthGuard; scimConfigurations: ScimConfigurationsService },
) {
  const { urls, guard, scimConfigurations } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Provisioning'];

  const list = route(tags, 'The provisioning configurations of the organizations the caller owns', {
    200: scimConfigurationCollection,
  });
  app.get('/scim_configurations', list, async (request) => {
    const caller = await guard.requireCaller(request);
    const rows = await scimConfigurations.list(caller.user);
    return collection(
      'scim_configurations',
      `${urls.auth}/scim_configurations`,
      rows.map((row) => toScimConfigurationHal(row, urls)),
    );
  });

  const create = route(
    tags,
    'Set up provisioning for an organization, with the role new users get (its Account Owner)',
    { 201: scimConfigurationResource },
    { body: createScimConfigurationInput },
  );
  app.post('/scim_configurations', create, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const row = await scimConfigurations.create(caller.user, request.body);
    return reply.code(201).send(toScimConfigurationHal(row, urls));
  });

  // The token is made by the caller for their organization; like a personal access token it acts with
  // an organization owner's reach, so it needs the password entered again (an elevated token).
  const generate = {
    config: { caller: { elevated: true } },
    ...route(
      tags,
      'Generate the bearer token for /scim/v2 (elevated); it replaces the previous one and is shown only here',
      { 200: generatedScimToken },
      { body: generateScimTokenInput },
    ),
  };
  app.post('/scim_configurations/generate_token', generate, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const token = await scimConfigurations.generateToken(caller.user, request.body);
    // The secret is in this answer only: no cache keeps a copy.
    reply.header('cache-control', 'no-store');
    return { token };
  });

  const update = idRoute(
    tags,
    'Change the default role of provisioning',
    { 200: scimConfigurationResource },
    {
      body: bodyCheckedByService(
        updateScimConfigurationInput,
        '`{scim_configuration: {organization_id, default_role_id}}`',
      ),
    },
  );
  app.patch('/scim_configurations/:id', update, async (request) => {
    const caller = await guard.requireCaller(request);
    await scimConfigurations.configurationFor(caller.user, request.params.id);
    const body = parseBody(updateScimConfigurationInput, request.body);
    return toScimConfigurationHal(
      await scimConfigurations.update(caller.user, request.params.id, body),
      urls,
    );
  });

  const remove = idRoute(tags, 'Stop provisioning: the configuration and its token go', { 204: noContent });
  app.delete('/scim_configurations/:id', remove, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await scimConfigurations.remove(caller.user, request.params.id);
    return reply.code(204).send(null);
  });
}
