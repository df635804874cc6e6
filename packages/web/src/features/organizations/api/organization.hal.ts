import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.1 organization. */
export interface OrganizationHal extends HalResource {
  name: string;
  sso_enforced?: boolean;
  reauth_required?: boolean;
  address?: string | null;
  city?: string | null;
  state?: string | null;
  zip?: string | null;
  primary_phone?: string | null;
  emergency_phone?: string | null;
  security_alert_email?: string | null;
  ops_alert_email?: string | null;
  created_at?: string;
  updated_at?: string;
}

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

export interface Organization {
  id: string;
  name: string;
  ssoEnforced: boolean;
  reauthRequired: boolean;
  billingDetailId: string | null;
  contacts: OrganizationContacts;
  createdAt: string;
  updatedAt: string;
}

export function fromOrganizationHal(organization: OrganizationHal): Organization {
  return {
    id: idOf(organization),
    name: organization.name ?? '',
    ssoEnforced: organization.sso_enforced === true,
    reauthRequired: organization.reauth_required === true,
    billingDetailId: linkId(organization, 'billing_detail'),
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
    createdAt: organization.created_at ?? '',
    updatedAt: organization.updated_at ?? '',
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
