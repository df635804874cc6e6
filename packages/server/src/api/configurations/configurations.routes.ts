import { configurationResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { getById } from '../../http/get-by-id.ts';
import { toConfigurationHal } from './configurations.hal.ts';
import type { ConfigurationsService } from './configurations.service.ts';

export async function configurationsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; configurations: ConfigurationsService },
) {
  const { urls, callers, configurations } = deps;
  // Environment variables are sensitive: `read` (or sensitive, which implies it), not basic_read (spec 1 §6).
  const route = {
    path: '/configurations/:id',
    tags: ['Configurations'],
    summary: "An app's environment variables",
    answer: configurationResource,
    callers,
  };
  getById(fastify, route, async (caller, id) =>
    toConfigurationHal(await configurations.get(caller, id), urls),
  );
}
