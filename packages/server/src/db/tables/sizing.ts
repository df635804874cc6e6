import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { services } from './apps.ts';
import { timestamps } from './common.ts';
import { environments } from './environments.ts';

/**
 * Service sizing policies (contract §4.3 service_sizing_policy): one per service at most, what the
 * autoscaler follows for it. The environment is kept beside the service for the environment's list.
 */
export const sizingPolicies = pgTable(
  'service_sizing_policies',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    scalingEnabled: boolean('scaling_enabled').notNull().default(false),
    autoscaling: text('autoscaling').notNull().default('vertical'),
    defaultPolicy: boolean('default_policy').notNull().default(false),
    useHorizontalScale: boolean('use_horizontal_scale').notNull().default(false),
    metricLookbackSeconds: integer('metric_lookback_seconds').notNull(),
    percentile: doublePrecision('percentile').notNull(),
    postScaleUpCooldownSeconds: integer('post_scale_up_cooldown_seconds').notNull(),
    postScaleDownCooldownSeconds: integer('post_scale_down_cooldown_seconds').notNull(),
    postReleaseCooldownSeconds: integer('post_release_cooldown_seconds').notNull(),
    memCpuRatioRThreshold: doublePrecision('mem_cpu_ratio_r_threshold').notNull(),
    memCpuRatioCThreshold: doublePrecision('mem_cpu_ratio_c_threshold').notNull(),
    memScaleUpThreshold: doublePrecision('mem_scale_up_threshold').notNull(),
    memScaleDownThreshold: doublePrecision('mem_scale_down_threshold').notNull(),
    minimumMemory: integer('minimum_memory').notNull(),
    maximumMemory: integer('maximum_memory'),
    minContainers: integer('min_containers'),
    maxContainers: integer('max_containers'),
    minCpuThreshold: doublePrecision('min_cpu_threshold'),
    maxCpuThreshold: doublePrecision('max_cpu_threshold'),
    scaleUpStep: integer('scale_up_step').notNull(),
    scaleDownStep: integer('scale_down_step').notNull(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('service_sizing_policies_service_unique').on(table.serviceId),
    index('service_sizing_policies_env_idx').on(table.environmentId),
  ],
);

/**
 * Manual sizing recommendations (contract §4.3 manual_service_sizing_recommendation): the newest per
 * service, replaced by the daily pass. What the service had when it was made is kept, so the console
 * shows it only while the service still has that size.
 */
export const sizingRecommendations = pgTable(
  'sizing_recommendations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    serviceId: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    environmentId: integer('environment_id')
      .notNull()
      .references(() => environments.id, { onDelete: 'cascade' }),
    cpuUsage: doublePrecision('cpu_usage').notNull(),
    ramUsage: doublePrecision('ram_usage').notNull(),
    ramTarget: doublePrecision('ram_target').notNull(),
    recommendedInstanceClass: text('recommended_instance_class').notNull(),
    recommendedContainerMemoryLimitMb: integer('recommended_container_memory_limit_mb').notNull(),
    instanceClassAtTime: text('instance_class_at_time').notNull(),
    containerMemoryLimitMbAtTime: integer('container_memory_limit_mb_at_time').notNull(),
    costSavings: doublePrecision('cost_savings').notNull(),
    metricPercentile: doublePrecision('metric_percentile').notNull(),
    ...timestamps,
  },
  (table) => [
    uniqueIndex('sizing_recommendations_service_unique').on(table.serviceId),
    index('sizing_recommendations_env_idx').on(table.environmentId),
    // The daily pass looks for services whose recommendation is a day old.
    index('sizing_recommendations_created_idx').on(table.createdAt),
  ],
);
