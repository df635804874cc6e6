import type {
  ActivePlanResource,
  BillingDetailResource,
  InvoiceResource,
  PlanResource,
  StripeSourceResource,
  TrialResource,
} from '@berth/core';
import { PLAN_CATALOG, type PlanName } from '@berth/core';
import { TEST_CONFIG } from './fixtures.ts';

// The billing family's and the plans' answers (contract §4.2), typed by core's wire shapes.

const billing = (path: string) => `${TEST_CONFIG.billingUrl}${path}`;
const api = (path: string) => `${TEST_CONFIG.apiUrl}${path}`;
const TIMESTAMP = '2025-01-15T10:00:00.000Z';

export function billingDetailHal({
  id = 'org-1',
  paymentMethod = true,
  portalUrl = null,
}: {
  id?: string;
  paymentMethod?: boolean;
  portalUrl?: string | null;
} = {}): BillingDetailResource {
  return {
    id,
    _type: 'billing_detail',
    organization_details_json: { name: 'Analytical Engines' },
    invoiced_externally: false,
    external_invoice_portal_url: portalUrl,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: billing(`/billing_details/${id}`) },
      organization: { href: `${TEST_CONFIG.authUrl}/organizations/${id}` },
      stripe_sources: { href: billing(`/billing_details/${id}/stripe_sources`) },
      trials: { href: billing(`/billing_details/${id}/trials`) },
      ...(paymentMethod ? { payment_method: { href: billing('/stripe_sources/src-1') } } : {}),
    },
  };
}

export function stripeSourceHal({
  id = 'src-1',
  billingDetailId = 'org-1',
  deactivatedAt = null,
}: {
  id?: string;
  billingDetailId?: string;
  deactivatedAt?: string | null;
} = {}): StripeSourceResource {
  return {
    id,
    _type: 'stripe_source',
    deactivated_at: deactivatedAt,
    description: 'Visa ending in 4242',
    stripe_token_id: 'tok_visa',
    stripe_type: 'card',
    stripe_metadata: null,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: billing(`/stripe_sources/${id}`) },
      billing_detail: { href: billing(`/billing_details/${billingDetailId}`) },
    },
  };
}

export function trialHal(rangeBegin: string, rangeEnd: string): TrialResource {
  return {
    id: 'trial-1',
    _type: 'trial',
    range_begin: rangeBegin,
    range_end: rangeEnd,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: billing('/trials/trial-1') },
      billing_detail: { href: billing('/billing_details/org-1') },
    },
  };
}

function figures(name: PlanName) {
  const plan = PLAN_CATALOG[name];
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
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
  };
}

/** Plan ids are their place in the catalog, from 1 (none). */
export const planId = (name: PlanName) => String(Object.keys(PLAN_CATALOG).indexOf(name) + 1);

export function planHal(name: PlanName): PlanResource {
  return {
    id: planId(name),
    _type: 'plan',
    name,
    ...figures(name),
    _links: { self: { href: api(`/plans/${planId(name)}`) } },
  };
}

export function activePlanHal(
  name: PlanName,
  {
    organizationId = 'org-1',
    available = ['starter', 'growth', 'scale'],
  }: { organizationId?: string; available?: string[] } = {},
): ActivePlanResource {
  return {
    id: 'active-1',
    _type: 'active_plan',
    ...figures(name),
    available_plans: available,
    organization_id: organizationId,
    plan_id: planId(name),
    _links: {
      self: { href: api('/active_plans/active-1') },
      organization: { href: `${TEST_CONFIG.authUrl}/organizations/${organizationId}` },
      plan: { href: api(`/plans/${planId(name)}`) },
    },
  };
}

export function invoiceHal(id: string, totalCents: number, organizationId = 'org-1'): InvoiceResource {
  return {
    id,
    _type: 'invoice',
    period_start: '2026-10-01T00:00:00.000Z',
    period_end: '2026-11-01T00:00:00.000Z',
    plan_name: 'growth',
    discount_percent: 15,
    lines: [],
    plan_cents: totalCents,
    usage_cents: 0,
    included_cents: 0,
    discount_cents: 0,
    total_cents: totalCents,
    created_at: TIMESTAMP,
    _links: { billing_detail: { href: billing(`/billing_details/${organizationId}`) } },
  };
}
