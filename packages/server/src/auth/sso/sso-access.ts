import {
  REAUTHENTICATION_REQUIRED_ERROR,
  type RoleType,
  SSO_REQUIRED_ERROR,
  ssoEnforcementMessages,
} from '@berth/core';
import { forbidden } from '../../http/errors.ts';

/** What decides whether a token may use an organization the caller belongs to. */
export interface OrganizationSsoFacts {
  id: string;
  name: string;
  ssoEnforced: boolean;
  /** The caller is on its SSO bypass list (whitelist memberships). */
  bypass: boolean;
  /** The caller's role types there. */
  roleTypes: readonly RoleType[];
}

/** What of the request's token matters: an organization (SSO) token names its organization. */
export interface TokenSsoFacts {
  ssoOrganizationId: string | null;
}

/** Why the caller must sign in again before this token may use the organization. */
export interface Reauthentication {
  organizationId: string;
  organizationName: string;
  /** `sso`: the organization enforces SSO; `other_organization`: an SSO session of another one. */
  reason: 'sso' | 'other_organization';
}

/**
 * spec 1 §6 "SSO enforcement: owners and users on the bypass allowlist are exempt". Owners are the Account
 * Owners (role type `owner`): they manage SSO and must be able to reach it when the identity provider
 * fails; a Deploy Owner holds every platform resource, so exempting them would leave enforcement with
 * little to protect (they can be put on the bypass list like anyone else).
 */
export function exemptFromSso(organization: OrganizationSsoFacts): boolean {
  return organization.bypass || organization.roleTypes.includes('owner');
}

/**
 * Whether this token may use the organization, and why not. An organization (SSO) token acts only in
 * its own organization (contract §3.3: its subject is the organization; the identity provider vouched
 * for the user there alone); any other token, in every organization of the user except those enforcing
 * SSO where they are not exempt.
 */
export function reauthenticationNeeded(
  organization: OrganizationSsoFacts,
  token: TokenSsoFacts,
): Reauthentication | null {
  if (token.ssoOrganizationId === organization.id) return null;
  const ssoRequired = organization.ssoEnforced && !exemptFromSso(organization);
  if (!ssoRequired && token.ssoOrganizationId === null) return null;
  return {
    organizationId: organization.id,
    organizationName: organization.name,
    reason: ssoRequired ? 'sso' : 'other_organization',
  };
}

/** The 403 for a request on such an organization's resources (never 401: contract §1.2). */
export function reauthenticationError(need: Reauthentication) {
  return need.reason === 'sso'
    ? forbidden(ssoEnforcementMessages.required(need.organizationName), SSO_REQUIRED_ERROR)
    : forbidden(
        ssoEnforcementMessages.otherOrganization(need.organizationName),
        REAUTHENTICATION_REQUIRED_ERROR,
      );
}
