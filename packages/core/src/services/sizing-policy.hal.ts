import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';
import { AUTOSCALING_MODES } from './sizing-policy.schema.ts';

/** Contract §4.3 service_sizing_policy: the policy fields, linked to its environment and its service. */
export const sizingPolicyResource = z
  .strictObject({
    id: halId,
    _type: z.literal('service_sizing_policy'),
    scaling_enabled: z.boolean(),
    autoscaling: z.enum(AUTOSCALING_MODES),
    default_policy: z.boolean(),
    use_horizontal_scale: z.boolean(),
    metric_lookback_seconds: z.number().int(),
    percentile: z.number(),
    post_scale_up_cooldown_seconds: z.number().int(),
    post_scale_down_cooldown_seconds: z.number().int(),
    post_release_cooldown_seconds: z.number().int(),
    mem_cpu_ratio_r_threshold: z.number(),
    mem_cpu_ratio_c_threshold: z.number(),
    mem_scale_up_threshold: z.number(),
    mem_scale_down_threshold: z.number(),
    minimum_memory: z.number().int(),
    maximum_memory: z.number().int().nullable(),
    min_containers: z.number().int().nullable(),
    max_containers: z.number().int().nullable(),
    min_cpu_threshold: z.number().nullable(),
    max_cpu_threshold: z.number().nullable(),
    scale_up_step: z.number().int(),
    scale_down_step: z.number().int(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'account', 'service']),
  })
  .meta({ id: 'ServiceSizingPolicy' });
export type SizingPolicyResource = z.infer<typeof sizingPolicyResource>;

export const sizingPolicyCollection = halCollection('service_sizing_policies', sizingPolicyResource).meta({
  id: 'ServiceSizingPolicyCollection',
});
export type SizingPolicyCollection = z.infer<typeof sizingPolicyCollection>;

/** Contract §4.3 manual_service_sizing_recommendation: `service_id` is a plain field the console matches on. */
export const sizingRecommendationResource = z
  .strictObject({
    id: halId,
    _type: z.literal('manual_service_sizing_recommendation'),
    service_id: z.string(),
    cpu_usage: z.number(),
    ram_usage: z.number(),
    ram_target: z.number(),
    recommended_instance_class: z.string(),
    recommended_container_memory_limit_mb: z.number().int(),
    instance_class_at_time: z.string(),
    container_memory_limit_mb_at_time: z.number().int(),
    cost_savings: z.number(),
    metric_percentile: z.number(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'service']),
  })
  .meta({ id: 'ManualServiceSizingRecommendation' });
export type SizingRecommendationResource = z.infer<typeof sizingRecommendationResource>;

export const sizingRecommendationCollection = halCollection(
  'manual_service_sizing_recommendations',
  sizingRecommendationResource,
).meta({ id: 'ManualServiceSizingRecommendationCollection' });
export type SizingRecommendationCollection = z.infer<typeof sizingRecommendationCollection>;
