import type {
  ActivePlanResource,
  BillingDetailResource,
  InvoiceResource,
  PlanResource,
  StripeSourceResource,
  TrialResource,
} from '@berth/core';
import { idOf } from '../../../lib/hal.ts';

// The billing family's and the plans' answers as the console reads them (contract §4.2). The hooks beside
// this file are the one way the screens reach them.

/** A billing detail's address in the billing family, or one of its lists'. */
export const billingDetailPath = (billingDetailId: string, rest = '') =>
  `/billing_details/${encodeURIComponent(billingDetailId)}${rest}`;

/** What the payment form sends of the card holder: the name on the card and the billing address. */
export interface PaymentDetails {
  nameOnCard: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
}

export interface BillingDetail {
  id: string;
  /** contract §4.2: a `payment_method` link means "has a payment method" (the §7 guard reads it). */
  paymentMethodUrl: string | null;
  organizationDetails: Record<string, unknown>;
  invoicedExternally: boolean;
  externalInvoicePortalUrl: string | null;
}

export function fromBillingDetailResource(resource: BillingDetailResource): BillingDetail {
  return {
    id: idOf(resource),
    paymentMethodUrl: resource._links.payment_method?.href ?? null,
    organizationDetails: resource.organization_details_json ?? {},
    invoicedExternally: resource.invoiced_externally ?? false,
    externalInvoicePortalUrl: resource.external_invoice_portal_url ?? null,
  };
}

export interface PaymentSource {
  id: string;
  href: string;
  description: string;
  /** null: active. */
  deactivatedAt: string | null;
}

export function fromStripeSourceResource(resource: StripeSourceResource): PaymentSource {
  return {
    id: idOf(resource),
    href: resource._links.self.href,
    description: resource.description,
    deactivatedAt: resource.deactivated_at,
  };
}

export interface Trial {
  rangeBegin: string;
  rangeEnd: string;
}

export function fromTrialResource(resource: TrialResource): Trial {
  return { rangeBegin: resource.range_begin, rangeEnd: resource.range_end };
}

/** The figures a plan and an active plan share (spec 1 §3). */
export interface PlanFiguresView {
  costCents: number;
  containerMemoryLimit: number;
  includedContainerMb: number;
  diskLimit: number;
  includedDiskGb: number;
  vhostLimit: number;
  includedVhosts: number;
  environmentLimit: number | null;
  ephemeralSessionLimit: number;
  discountPercent: number;
  horizontalAutoscaling: boolean;
  verticalAutoscaling: boolean;
}

function figuresOf(resource: PlanResource | ActivePlanResource): PlanFiguresView {
  return {
    costCents: resource.cost_cents,
    containerMemoryLimit: resource.container_memory_limit,
    includedContainerMb: resource.included_container_mb,
    diskLimit: resource.disk_limit,
    includedDiskGb: resource.included_disk_gb,
    vhostLimit: resource.vhost_limit,
    includedVhosts: resource.included_vhosts,
    environmentLimit: resource.environment_limit,
    ephemeralSessionLimit: resource.ephemeral_session_limit,
    discountPercent: resource.discount_percent ?? 0,
    horizontalAutoscaling: resource.horizontal_autoscaling,
    verticalAutoscaling: resource.vertical_autoscaling,
  };
}

export interface Plan extends PlanFiguresView {
  id: string;
  name: string;
}

export function fromPlanResource(resource: PlanResource): Plan {
  return { id: idOf(resource), name: resource.name, ...figuresOf(resource) };
}

export interface ActivePlan extends PlanFiguresView {
  id: string;
  planId: string;
  availablePlans: string[];
  organizationId: string;
}

export function fromActivePlanResource(resource: ActivePlanResource): ActivePlan {
  return {
    id: idOf(resource),
    planId: resource.plan_id,
    availablePlans: resource.available_plans,
    organizationId: resource.organization_id,
    ...figuresOf(resource),
  };
}

export interface InvoiceSummary {
  id: string;
  periodStart: string;
  periodEnd: string;
  totalCents: number;
}

export function fromInvoiceResource(resource: InvoiceResource): InvoiceSummary {
  return {
    id: idOf(resource),
    periodStart: resource.period_start,
    periodEnd: resource.period_end,
    totalCents: resource.total_cents,
  };
}
