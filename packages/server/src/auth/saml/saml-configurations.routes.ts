import {
  noContent,
  SAML_METADATA_BASE64_MAX_LENGTH,
  samlConfigurationCollection,
  samlConfigurationCreateInput,
  samlConfigurationResource,
  samlConfigurationUpdateInput,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FamilyUrls } from '../../config.ts';
import { parseBody } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { bodyCheckedByService, idRoute, route } from '../../http/route-schemas.ts';
import type { Callers } from '../caller-access.ts';
import { toSamlConfigurationHal } from './saml-configurations.hal.ts';
import type { SamlConfigurationsService } from './saml-configurations.service.ts';

/**
 * SAML configurations (contract §4.1, §5.4): the Account Owner's, per organization. The body is checked
 * once the caller may act on the organization, so others get 404 or 403 whatever they send.
 */
export async function samlConfigurationsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; samlConfigurations: SamlConfigurationsService },
) {
  const { urls, callers, samlConfigurations } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Single sign-on'];
  // The metadata XML travels base64-encoded in the body: more than the usual string backstop, and above
  // the field's own limit so its own message is the one given.
  const metadataBody = { maxBodyString: SAML_METADATA_BASE64_MAX_LENGTH + 1024 };

  app.get(
    '/saml_configurations',
    route(tags, 'The SAML configurations of the organizations the caller owns, the selected one’s first', {
      200: samlConfigurationCollection,
    }),
    async (request) => {
      const caller = await callers.require(request);
      const rows = await samlConfigurations.list(caller);
      return collection(
        'saml_configurations',
        `${urls.auth}/saml_configurations`,
        rows.map((row) => toSamlConfigurationHal(row, urls)),
      );
    },
  );

  app.post(
    '/organizations/:id/saml_configurations',
    {
      config: metadataBody,
      ...idRoute(
        tags,
        'Configure SAML single sign-on from the IdP’s metadata (Account Owners)',
        { 201: samlConfigurationResource },
        {
          body: bodyCheckedByService(
            samlConfigurationCreateInput,
            '`metadata` (the IdP metadata XML, base64) or `metadata_url` (https), optional `handle`, `jit_enabled` and `default_role_id`',
          ),
        },
      ),
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const row = await samlConfigurations.create(caller, request.params.id, () =>
        parseBody(samlConfigurationCreateInput, request.body),
      );
      return reply.code(201).send(toSamlConfigurationHal(row, urls));
    },
  );

  app.patch(
    '/saml_configurations/:id',
    {
      config: metadataBody,
      ...idRoute(
        tags,
        'Change a SAML configuration: new metadata, the handle, or just-in-time provisioning (Account Owners)',
        { 200: samlConfigurationResource },
        {
          body: bodyCheckedByService(
            samlConfigurationUpdateInput,
            '`metadata` or `metadata_url`; or `handle` (null clears it); or `jit_enabled` and `default_role_id`',
          ),
        },
      ),
    },
    async (request) => {
      const caller = await callers.require(request);
      const row = await samlConfigurations.update(caller, request.params.id, () =>
        parseBody(samlConfigurationUpdateInput, request.body),
      );
      return toSamlConfigurationHal(row, urls);
    },
  );

  app.delete(
    '/saml_configurations/:id',
    idRoute(tags, 'Remove a SAML configuration, unless SSO is enforced (Account Owners)', { 204: noContent }),
    async (request, reply) => {
      const caller = await callers.require(request);
      await samlConfigurations.remove(caller, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
