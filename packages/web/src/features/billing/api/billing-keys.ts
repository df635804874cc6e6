/** Query keys of the billing family and the plans (contract §4.2): one place, so changes refresh the right lists. */
export const billingKeys = {
  all: ['billing'] as const,
  detail: (billingDetailId: string) => ['billing', 'detail', billingDetailId] as const,
  sources: (billingDetailId: string) => ['billing', 'sources', billingDetailId] as const,
  trials: (billingDetailId: string) => ['billing', 'trials', billingDetailId] as const,
  invoices: (billingDetailId: string) => ['billing', 'invoices', billingDetailId] as const,
  plans: ['plans'] as const,
  activePlan: (organizationId: string) => ['plans', 'active', organizationId] as const,
};
