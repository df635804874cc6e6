import type { SizingPolicyFields, SizingPolicyResource, SizingRecommendationResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { sizingPolicies, sizingRecommendations } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type SizingPolicyRow = typeof sizingPolicies.$inferSelect;
export type SizingRecommendationRow = typeof sizingRecommendations.$inferSelect;

/** The policy's fields in the wire's snake case (what the core rules check). */
export function policyFields(row: SizingPolicyRow): SizingPolicyFields {
  return {
    scaling_enabled: row.scalingEnabled,
    autoscaling: row.autoscaling === 'horizontal' ? 'horizontal' : 'vertical',
    default_policy: row.defaultPolicy,
    use_horizontal_scale: row.useHorizontalScale,
    metric_lookback_seconds: row.metricLookbackSeconds,
    percentile: row.percentile,
    post_scale_up_cooldown_seconds: row.postScaleUpCooldownSeconds,
    post_scale_down_cooldown_seconds: row.postScaleDownCooldownSeconds,
    post_release_cooldown_seconds: row.postReleaseCooldownSeconds,
    mem_cpu_ratio_r_threshold: row.memCpuRatioRThreshold,
    mem_cpu_ratio_c_threshold: row.memCpuRatioCThreshold,
    mem_scale_up_threshold: row.memScaleUpThreshold,
    mem_scale_down_threshold: row.memScaleDownThreshold,
    minimum_memory: row.minimumMemory,
    maximum_memory: row.maximumMemory,
    min_containers: row.minContainers,
    max_containers: row.maxContainers,
    min_cpu_threshold: row.minCpuThreshold,
    max_cpu_threshold: row.maxCpuThreshold,
    scale_up_step: row.scaleUpStep,
    scale_down_step: row.scaleDownStep,
  };
}

/** The columns of a policy's fields (the inverse of `policyFields`). */
export function policyColumns(fields: SizingPolicyFields) {
  return {
    scalingEnabled: fields.scaling_enabled,
    autoscaling: fields.autoscaling,
    defaultPolicy: fields.default_policy,
    useHorizontalScale: fields.use_horizontal_scale,
    metricLookbackSeconds: fields.metric_lookback_seconds,
    percentile: fields.percentile,
    postScaleUpCooldownSeconds: fields.post_scale_up_cooldown_seconds,
    postScaleDownCooldownSeconds: fields.post_scale_down_cooldown_seconds,
    postReleaseCooldownSeconds: fields.post_release_cooldown_seconds,
    memCpuRatioRThreshold: fields.mem_cpu_ratio_r_threshold,
    memCpuRatioCThreshold: fields.mem_cpu_ratio_c_threshold,
    memScaleUpThreshold: fields.mem_scale_up_threshold,
    memScaleDownThreshold: fields.mem_scale_down_threshold,
    minimumMemory: fields.minimum_memory,
    maximumMemory: fields.maximum_memory,
    minContainers: fields.min_containers,
    maxContainers: fields.max_containers,
    minCpuThreshold: fields.min_cpu_threshold,
    maxCpuThreshold: fields.max_cpu_threshold,
    scaleUpStep: fields.scale_up_step,
    scaleDownStep: fields.scale_down_step,
  };
}

/** Contract §4.3 service_sizing_policy: its own address is its service's (one policy per service). */
export function toSizingPolicyHal(row: SizingPolicyRow, urls: FamilyUrls): SizingPolicyResource {
  return {
    id: String(row.id),
    _type: 'service_sizing_policy',
    ...policyFields(row),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: `${urls.api}/services/${row.serviceId}/service_sizing_policies`,
      account: `${urls.api}/accounts/${row.environmentId}`,
      service: `${urls.api}/services/${row.serviceId}`,
    }),
  };
}

/** Contract §4.3 manual_service_sizing_recommendation. */
export function toSizingRecommendationHal(
  row: SizingRecommendationRow,
  urls: FamilyUrls,
): SizingRecommendationResource {
  return {
    id: String(row.id),
    _type: 'manual_service_sizing_recommendation',
    service_id: String(row.serviceId),
    cpu_usage: row.cpuUsage,
    ram_usage: row.ramUsage,
    ram_target: row.ramTarget,
    recommended_instance_class: row.recommendedInstanceClass,
    recommended_container_memory_limit_mb: row.recommendedContainerMemoryLimitMb,
    instance_class_at_time: row.instanceClassAtTime,
    container_memory_limit_mb_at_time: row.containerMemoryLimitMbAtTime,
    cost_savings: row.costSavings,
    metric_percentile: row.metricPercentile,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    _links: links({
      self: `${urls.api}/manual_service_sizing_recommendations/${row.id}`,
      service: `${urls.api}/services/${row.serviceId}`,
    }),
  };
}
