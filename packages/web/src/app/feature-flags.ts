import { paths } from '../lib/paths.ts';

// spec 1 §5: the home dashboard is gated by membership of an organization-id list embedded in the product.
// Berth ships no home dashboard yet, so no organization is on the list and "/" leads to the environments.
const HOME_BETA_ORGANIZATION_IDS: readonly string[] = [];

export function isHomeEnabled(organizationId: string | null): boolean {
  return organizationId !== null && HOME_BETA_ORGANIZATION_IDS.includes(organizationId);
}

/** The tooltip of a console destination this installation does not have yet. */
export const NOT_AVAILABLE_YET = 'Not available in this installation yet';

// Destinations the spec names that Berth has not built: the console shows them disabled with
// NOT_AVAILABLE_YET instead of linking to a dead page. Remove a path here when its page ships.
const NOT_BUILT: ReadonlySet<string> = new Set([paths.securityCompliance, paths.support]);

export function isBuilt(path: string): boolean {
  return !NOT_BUILT.has(path);
}

// spec 2 §2: the database Recovery tab appears only when a feature flag is on. This installation
// implements point-in-time recovery (pitr_restore, then provision on the new database) for the images
// that support it (PostgreSQL 13 and later: database_image.pitr_supported), so the flag is on; the tab
// still shows only for a database whose image has pitr_supported.
const DATABASE_RECOVERY_ENABLED = true;

export function isDatabaseRecoveryEnabled(): boolean {
  return DATABASE_RECOVERY_ENABLED;
}
