import type { OrganizationResource, ReauthenticateOrganizationResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** spec 1 §3 organization contact settings; an unset field is ''. */
export interface OrganizationContacts {
  address: string;
  city: string;
  state: string;
  zip: string;
  primaryPhone: string;
  emergencyPhone: string;
  securityAlertEmail: string;
  opsAlertEmail: string;
}

/** contract §4.1 organization as the console reads it. */
export interface Organization {
  id: string;
  name: string;
  ssoEnforced: boolean;
  /** The session's token may not use it until the user signs in again (SSO; spec 1 §3 reauthRequired). */
  reauthRequired: boolean;
  contacts: OrganizationContacts;
  /** contract §4.1: the billing detail its `billing_detail` link names (drives every billing call), if any. */
  billingDetailId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The contact fields are null until someone fills them in; they read as ''. */
export function fromOrganizationResource(
  organization: OrganizationResource | ReauthenticateOrganizationResource,
): Organization {
  return {
    id: idOf(organization),
    name: organization.name,
    ssoEnforced: organization.sso_enforced,
    reauthRequired: organization.reauth_required,
    contacts: {
      address: organization.address ?? '',
      city: organization.city ?? '',
      state: organization.state ?? '',
      zip: organization.zip ?? '',
      primaryPhone: organization.primary_phone ?? '',
      emergencyPhone: organization.emergency_phone ?? '',
      securityAlertEmail: organization.security_alert_email ?? '',
      opsAlertEmail: organization.ops_alert_email ?? '',
    },
    billingDetailId: linkId(organization, 'billing_detail'),
    createdAt: organization.created_at,
    updatedAt: organization.updated_at,
  };
}

/**
 * spec 1 §4: the user's stored selection when it still exists, else the most recently updated organization.
 * Timestamps share one ISO layout (contract §1.8), so they compare as strings.
 */
export function chooseOrganization(
  organizations: readonly Organization[],
  preferredId: string | null,
): Organization | null {
  const preferred = preferredId
    ? organizations.find((organization) => organization.id === preferredId)
    : undefined;
  if (preferred) return preferred;
  let latest: Organization | null = null;
  for (const organization of organizations) {
    if (!latest || organization.updatedAt > latest.updatedAt) latest = organization;
  }
  return latest;
}

/**
 * The organization the console opens (contract §4.1 user): the stored selection unless it needs a new
 * sign-in (SSO), when a usable one is chosen instead; with none usable, the selection as it is (the shell
 * then shows its SSO error and asks nothing of it).
 */
export function consoleOrganization(
  organizations: readonly Organization[],
  preferredId: string | null,
): Organization | null {
  const usable = organizations.filter((organization) => !organization.reauthRequired);
  return chooseOrganization(usable.length ? usable : organizations, preferredId);
}
