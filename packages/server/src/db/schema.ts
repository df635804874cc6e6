/**
 * The whole database schema, one file per resource under tables/. Everything imports tables from here
 * (and drizzle-kit reads this file to generate migrations), so the split is invisible elsewhere.
 */
export * from './tables/activity-reports.ts';
export * from './tables/app-list-versions.ts';
export * from './tables/apps.ts';
export * from './tables/audit-events.ts';
export * from './tables/billing.ts';
export * from './tables/cost-versions.ts';
export * from './tables/custom-resources.ts';
export * from './tables/databases.ts';
export * from './tables/drains.ts';
export * from './tables/endpoints.ts';
export * from './tables/environments.ts';
export * from './tables/home.ts';
export * from './tables/identity.ts';
export * from './tables/invoices.ts';
export * from './tables/mail.ts';
export * from './tables/operations.ts';
export * from './tables/organizations.ts';
export * from './tables/plans.ts';
export * from './tables/resource-costs.ts';
export * from './tables/saml.ts';
export * from './tables/scim.ts';
export * from './tables/security.ts';
export * from './tables/security-keys.ts';
export * from './tables/sizing.ts';
export * from './tables/ssh-keys.ts';
export * from './tables/sso-enforcement.ts';
export * from './tables/stack-connections.ts';
export * from './tables/support.ts';
export * from './tables/swarm-clusters.ts';
export * from './tables/two-factor.ts';
