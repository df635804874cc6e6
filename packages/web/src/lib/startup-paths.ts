import { MAX_PAGE_SIZE } from '@berth/core';

/**
 * Contract §7: the calls a signed-in console makes as it starts, named once for the queries that make
 * them and for the head start that sends them before the console's code has loaded (app/early-requests.ts).
 * Brackets are sent literally (contract §5.6).
 */
export const startupPaths = {
  currentToken: '/current_token',
  user: (userId: string) => `/users/${encodeURIComponent(userId)}`,
  userRoles: (userId: string) => `/users/${encodeURIComponent(userId)}/roles`,
  organizations: '/organizations',
  organizationRoles: (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/roles`,
  stacks: `/stacks?per_page=${MAX_PAGE_SIZE}`,
  // Permissions stay embedded even with no_embed.
  environments: `/accounts?per_page=${MAX_PAGE_SIZE}&no_embed=true&metrics[]=app_count&metrics[]=database_count`,
  apps: `/apps?per_page=${MAX_PAGE_SIZE}&no_embed=true`,
  services: `/services?per_page=${MAX_PAGE_SIZE}`,
  databases: `/databases?per_page=${MAX_PAGE_SIZE}&no_embed=true`,
  sizingPolicies: `/service_sizing_policies?per_page=${MAX_PAGE_SIZE}`,
  sizingRecommendations: `/manual_service_sizing_recommendations?per_page=${MAX_PAGE_SIZE}`,
} as const;
