import { getRuntimeConfig } from '../lib/config.ts';

// spec 1 §5: the home dashboard is gated by membership of an organization-id list embedded in the product.
// Berth makes the list one switch of the server's (BERTH_HOME, on by default): with it on, every
// organization is on the list, so everyone with an organization lands on Home (issue 38).
export function isHomeEnabled(organizationId: string | null): boolean {
  return organizationId !== null && getRuntimeConfig().home;
}

// spec 2 §2: the database Recovery tab appears only when a feature flag is on. This installation
// implements point-in-time recovery (pitr_restore, then provision on the new database) for the images
// that support it (PostgreSQL 13 and later: database_image.pitr_supported), so the flag is on; the tab
// still shows only for a database whose image has pitr_supported.
const DATABASE_RECOVERY_ENABLED = true;

export function isDatabaseRecoveryEnabled(): boolean {
  return DATABASE_RECOVERY_ENABLED;
}
