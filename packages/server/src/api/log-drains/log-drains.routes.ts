import { createLogDrainSchema, logDrainCollection, logDrainResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { drainRoutes } from '../drains/drain-routes.ts';
import { toLogDrainHal } from './log-drains.hal.ts';
import type { LogDrainsService } from './log-drains.service.ts';

/** Log drains: contract §5.10 (their operations go through the operations routes). */
export async function logDrainsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; logDrains: LogDrainsService },
) {
  await drainRoutes(fastify, {
    urls: deps.urls,
    callers: deps.callers,
    service: deps.logDrains,
    collectionKey: 'log_drains',
    noun: 'log drain',
    tag: 'Log drains',
    createBody: createLogDrainSchema,
    createDescription:
      'The drain: handle, type, sources, and the fields of its type (URL, host and port, token, database)',
    resource: logDrainResource,
    list: logDrainCollection,
    hal: (view) => toLogDrainHal(view.drain, deps.urls, view),
  });
}
