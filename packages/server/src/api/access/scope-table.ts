import type { Scope } from '@berth/core';

/**
 * The scope every api-family call needs on the environment it touches, written once (spec 1 §6,
 * spec 2 §6): read for reads, deploy to create/deploy/configure/restart, destroy to deprovision,
 * observability for scale, sensitive-level (read) for configuration values. Routes look their scope
 * up here; a test checks that every registered api route has an entry.
 * Lists are filtered to environments with basic_read instead of being refused.
 * 'owner or role admin' (spec 1 §6): an owner, or a privileged member of the role being changed.
 */
export const ROUTE_SCOPES = {
  'GET /stacks': 'basic_read',
  'GET /stacks/:id': 'basic_read',
  'GET /accounts': 'basic_read',
  'GET /accounts/:id': 'basic_read',
  'POST /accounts': 'owner',
  'PATCH /accounts/:id': 'admin',
  'DELETE /accounts/:id': 'destroy',
  'POST /accounts/:id/permissions': 'owner or role admin',
  'DELETE /permissions/:id': 'owner or role admin',
  'GET /apps': 'basic_read',
  'GET /apps/:id': 'basic_read',
  'GET /accounts/:id/apps': 'basic_read',
  'POST /accounts/:id/apps': 'deploy',
  'PUT /apps/:id': 'deploy',
  'GET /apps/:id/services': 'basic_read',
  'GET /services': 'basic_read',
  'GET /accounts/:id/services': 'basic_read',
  'GET /services/:id': 'basic_read',
  'PUT /services/:id': 'deploy',
  'GET /services/:id/releases': 'basic_read',
  'GET /releases/:id': 'basic_read',
  'GET /releases/:id/containers': 'basic_read',
  'GET /images/:id': 'basic_read',
  'GET /configurations/:id': 'read',
  'GET /code_scan_results/:id': 'basic_read',
  'GET /apps/:id/service_definitions': 'basic_read',
  'POST /apps/:id/service_definitions': 'deploy',
  'GET /service_definitions/:id': 'basic_read',
  'DELETE /service_definitions/:id': 'deploy',
  'GET /deployments': 'basic_read',
  'GET /deployments/:id': 'basic_read',
  'GET /apps/:id/deployments': 'basic_read',
  'GET /sources': 'basic_read',
  'GET /sources/:id': 'basic_read',
  'GET /sources/:id/deployments': 'basic_read',
  'GET /organizations/:id/operations': 'basic_read',
  'GET /accounts/:id/operations': 'basic_read',
  'GET /apps/:id/operations': 'basic_read',
  'GET /services/:id/operations': 'basic_read',
  'GET /operations/:id': 'basic_read',
  'GET /operations/:id/logs': 'basic_read',
  // The capability URL that answer points at: no token, the signed, expiring link is the permission.
  'GET /operation_logs/:id': 'signed link',
  'POST /apps/:id/operations': 'by operation type',
  'POST /services/:id/operations': 'by operation type',
  'GET /database_images': 'basic_read',
  'GET /database_images/:id': 'basic_read',
  'GET /costs/:orgId/stacks': 'basic_read',
  'GET /costs/:orgId/accounts': 'basic_read',
  'GET /costs/:orgId/apps': 'basic_read',
  'GET /costs/:orgId/databases': 'basic_read',
  'GET /costs/:orgId/services': 'basic_read',
  'GET /costs/:orgId/rates': 'basic_read',
  // Endpoints (contract §5.9): reads basic_read; create and change deploy; remove destroy.
  'GET /vhosts': 'basic_read',
  'GET /vhosts/:id': 'basic_read',
  'GET /accounts/:id/vhosts': 'basic_read',
  'GET /apps/:id/vhosts': 'basic_read',
  'GET /services/:id/vhosts': 'basic_read',
  'POST /services/:id/vhosts': 'deploy',
  'PATCH /vhosts/:id': 'deploy',
  'DELETE /vhosts/:id': 'destroy',
  'POST /vhosts/:id/operations': 'by operation type',
  'GET /vhosts/:id/operations': 'basic_read',
  // Certificates are sensitive (spec 2 §6): uploading, replacing and deleting need it; reads show the
  // private key only to callers who have it.
  'GET /accounts/:id/certificates': 'basic_read',
  'POST /accounts/:id/certificates': 'sensitive',
  'GET /certificates/:id': 'basic_read',
  'PATCH /certificates/:id': 'sensitive',
  'DELETE /certificates/:id': 'sensitive',
  'GET /certificates/:id/apps': 'basic_read',
  'GET /certificates/:id/vhosts': 'basic_read',
} as const satisfies Record<
  string,
  Scope | 'owner' | 'owner or role admin' | 'by operation type' | 'signed link'
>;

export type RouteKey = keyof typeof ROUTE_SCOPES;

// The scope of each operation type is in core's OPERATION_CATALOG (operation-types.ts), shared with the console.
