// spec 1 §5: the home dashboard is gated by membership of an organization-id list embedded in the product.
// Berth ships no home dashboard yet, so no organization is on the list and "/" leads to the environments.
const HOME_BETA_ORGANIZATION_IDS: readonly string[] = [];

export function isHomeEnabled(organizationId: string | null): boolean {
  return organizationId !== null && HOME_BETA_ORGANIZATION_IDS.includes(organizationId);
}
