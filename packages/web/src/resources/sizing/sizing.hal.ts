import type {
  RecommendationLike,
  SizingPolicyFields,
  SizingPolicyResource,
  SizingRecommendationResource,
} from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3 service_sizing_policy as the console reads it: its fields stay in the wire's snake case. */
export interface SizingPolicy {
  id: string;
  serviceId: string;
  environmentId: string;
  fields: SizingPolicyFields;
  updatedAt: string;
}

export function fromSizingPolicyResource(resource: SizingPolicyResource): SizingPolicy {
  const { id: _id, _type, _links, created_at: _created, updated_at, ...fields } = resource;
  return {
    id: idOf(resource),
    serviceId: linkId(resource, 'service') ?? '',
    environmentId: linkId(resource, 'account') ?? '',
    fields,
    updatedAt: updated_at,
  };
}

/** contract §4.3 manual_service_sizing_recommendation. */
export interface SizingRecommendation extends RecommendationLike {
  id: string;
  serviceId: string;
  cpuUsage: number;
  ramUsageMb: number;
  recommendedInstanceClass: string;
  recommendedContainerMemoryMb: number;
}

export function fromSizingRecommendationResource(
  resource: SizingRecommendationResource,
): SizingRecommendation {
  return {
    id: idOf(resource),
    serviceId: resource.service_id,
    cpuUsage: resource.cpu_usage,
    ramUsageMb: resource.ram_usage,
    recommendedInstanceClass: resource.recommended_instance_class,
    recommendedContainerMemoryMb: resource.recommended_container_memory_limit_mb,
    instanceClassAtTime: resource.instance_class_at_time,
    containerMemoryMbAtTime: resource.container_memory_limit_mb_at_time,
    costSavings: resource.cost_savings,
    createdAt: resource.created_at,
  };
}

export const sizingKeys = {
  all: ['sizing'] as const,
  policies: () => [...sizingKeys.all, 'policies'] as const,
  policyOf: (serviceId: string) => [...sizingKeys.all, 'policy', serviceId] as const,
  recommendations: () => [...sizingKeys.all, 'recommendations'] as const,
};
