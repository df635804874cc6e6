import type { ActivePlanResource, PlanResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { activePlans } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';
import type { PlanRow } from './plan-limits.ts';

export type ActivePlanRow = typeof activePlans.$inferSelect;

/** Contract §4.2: the figures a plan and an active plan share. */
function figuresOf(plan: PlanRow) {
  return {
    cost_cents: plan.costCents,
    container_memory_limit: plan.containerMemoryLimit,
    included_container_mb: plan.includedContainerMb,
    disk_limit: plan.diskLimit,
    included_disk_gb: plan.includedDiskGb,
    vhost_limit: plan.vhostLimit,
    included_vhosts: plan.includedVhosts,
    ephemeral_session_limit: plan.ephemeralSessionLimit,
    environment_limit: plan.environmentLimit,
    automated_backup_limit_per_db: plan.automatedBackupLimitPerDb,
    manual_backup_limit_per_db: plan.manualBackupLimitPerDb,
    compliance_dashboard_access: plan.complianceDashboardAccess,
    horizontal_autoscaling: plan.horizontalAutoscaling,
    vertical_autoscaling: plan.verticalAutoscaling,
    cpu_allowed_profiles: plan.cpuAllowedProfiles,
    discount_percent: plan.discountPercent,
  };
}

export function toPlanHal(plan: PlanRow, urls: FamilyUrls): PlanResource {
  return {
    id: String(plan.id),
    _type: 'plan',
    name: plan.name,
    ...figuresOf(plan),
    created_at: iso(plan.createdAt),
    updated_at: iso(plan.updatedAt),
    _links: links({ self: `${urls.api}/plans/${plan.id}` }),
  };
}

/** The plan's figures are the values in force for the organization (contract §4.2). */
export function toActivePlanHal(active: ActivePlanRow, plan: PlanRow, urls: FamilyUrls): ActivePlanResource {
  return {
    id: String(active.id),
    _type: 'active_plan',
    ...figuresOf(plan),
    available_plans: active.availablePlans,
    organization_id: active.organizationId,
    plan_id: String(plan.id),
    created_at: iso(active.createdAt),
    updated_at: iso(active.updatedAt),
    _links: links({
      self: `${urls.api}/active_plans/${active.id}`,
      organization: `${urls.auth}/organizations/${active.organizationId}`,
      plan: `${urls.api}/plans/${plan.id}`,
    }),
  };
}
