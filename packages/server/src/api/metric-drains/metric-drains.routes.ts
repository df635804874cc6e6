import { createMetricDrainSchema, metricDrainCollection, metricDrainResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { drainRoutes } from '../drains/drain-routes.ts';
import { toMetricDrainHal } from './metric-drains.hal.ts';
import type { MetricDrainsService } from './metric-drains.service.ts';

/** Metric drains: contract §5.10 (their operations go through the operations routes). */
export async function metricDrainsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; metricDrains: MetricDrainsService },
) {
  await drainRoutes(fastify, {
    urls: deps.urls,
    callers: deps.callers,
    service: deps.metricDrains,
    collectionKey: 'metric_drains',
    noun: 'metric drain',
    tag: 'Metric drains',
    createBody: createMetricDrainSchema,
    createDescription: 'The drain: handle, type, and its drain_configuration (or database_id)',
    resource: metricDrainResource,
    list: metricDrainCollection,
    hal: (view) => toMetricDrainHal(view.drain, deps.urls, view.configuration),
  });
}
