import { z } from 'zod';
import { type Actor, isAccountOwner, permissionMessages } from '../permissions/permissions.ts';
import { MAX_LENGTH } from '../text/limits.ts';

// Provisioning (SCIM 2.0): spec 1 §3 SCIM configuration, §5 its default role, §6 who may set it up, §7 its
// calls, §9 its constants; spec 3's SCIM page (create form with no configuration, else the edit form).

/** spec 1 §9: the SCIM version served, and the attribute that identifies a user (userName is the email). */
export const SCIM_VERSION = '2.0';
export const SCIM_UNIQUE_IDENTIFIER = 'email';
/** Where the SCIM service lives under the server's public URL (design: its own family). */
export const SCIM_BASE_PATH = '/scim/v2';

export const scimConfigurationMessages = {
  /** spec 1 §5. */
  defaultRoleRequired: 'must select Default Role',
  /** A group is the identity provider's to change; making it everyone's default would let the IdP hand it out. */
  defaultRoleManaged: 'A role managed through provisioning cannot be the default role',
  /**
   * An Account Owner is exempt from SSO enforcement and holds billing and every member: the identity
   * provider (or whoever holds its token) must not mint one for every user it provisions.
   */
  defaultRoleOwner: 'The Account Owner role cannot be the default role of provisioning',
  /** The configuration points at its default role: deleting that role would leave new users without one. */
  defaultRoleInUse:
    'This role is the default role of provisioning: choose another default role on the Provisioning page first',
  alreadyConfigured: 'Provisioning is already set up for this organization',
  /** spec 1 §6 "the account owner with a single assigned organization". */
  singleOrganization:
    'Provisioning needs an Account Owner who belongs to this one organization only: leave your other organizations first',
  /** The token is made by the caller for their organization (contract §5.4 `user_id`). */
  ownUserOnly: 'user_id must be your own user id',
  noConfiguration: 'Set up provisioning first',
  /** The token is shown once (spec 1 §3). */
  tokenShownOnce:
    'Copy the token now: it is shown only once. Paste it into your identity provider’s provisioning settings.',
  regenerateWarning:
    'Generating a new token stops the current one at once: your identity provider cannot provision until you give it the new token.',
  deleteWarning:
    'Deleting the configuration stops provisioning at once: its token stops working. Users and roles already provisioned stay as they are.',
} as const;

/**
 * spec 1 §6: provisioning needs the Account Owner with a single assigned organization. (It is also
 * "unavailable to trial users without payment": billing and trials are not built yet, so that part waits
 * for them.) The reason the page is disabled, or null.
 */
export function provisioningDenial(
  actor: Pick<Actor, 'roleTypes'>,
  organizationCount: number,
): string | null {
  if (!isAccountOwner(actor)) return permissionMessages.ownerOnly;
  if (organizationCount !== 1) return scimConfigurationMessages.singleOrganization;
  return null;
}

/** A bare id or a URL ending in one (contract §1.9: accept both). */
const reference = z.string().max(MAX_LENGTH.reference, { abort: true });

const defaultRoleId = z
  .string({ error: scimConfigurationMessages.defaultRoleRequired })
  .max(MAX_LENGTH.reference, { error: scimConfigurationMessages.defaultRoleRequired, abort: true })
  .trim()
  .min(1, scimConfigurationMessages.defaultRoleRequired);

/** contract §5.4 `POST /scim_configurations`, wrapped: `{scim_configuration: {organization_id, default_role_id, unique_identifier}}`. */
export const createScimConfigurationInput = z.object({
  scim_configuration: z.object({
    organization_id: reference,
    default_role_id: defaultRoleId,
    unique_identifier: z.literal(SCIM_UNIQUE_IDENTIFIER).optional(),
  }),
});
export type CreateScimConfigurationInput = z.infer<typeof createScimConfigurationInput>;

/** contract §5.4 `PATCH /scim_configurations/:id`: a new default role. */
export const updateScimConfigurationInput = z.object({
  scim_configuration: z.object({
    organization_id: reference.optional(),
    default_role_id: defaultRoleId,
  }),
});
export type UpdateScimConfigurationInput = z.infer<typeof updateScimConfigurationInput>;

/** contract §5.4 `POST /scim_configurations/generate_token`. */
export const generateScimTokenInput = z.object({
  scim_configuration_id: reference,
  user_id: reference,
});
export type GenerateScimTokenInput = z.infer<typeof generateScimTokenInput>;

/** The console's create and edit form: a default role must be chosen (spec 1 §5). */
export const scimConfigurationForm = z.object({ default_role_id: defaultRoleId });
export type ScimConfigurationForm = z.infer<typeof scimConfigurationForm>;
