import { z } from 'zod';
import { boundedString } from '../text/bounded-string.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

/** The largest IdP metadata document taken (as XML); real ones are a few to some tens of KB. */
export const SAML_METADATA_MAX_BYTES = 256 * 1024;
/** Its base64 text as the console sends it (4 characters per 3 bytes, rounded up). */
export const SAML_METADATA_BASE64_MAX_LENGTH = Math.ceil(SAML_METADATA_MAX_BYTES / 3) * 4;
export const SSO_HANDLE_MAX_LENGTH = 63;

/** spec 1 §5 and §8: the SSO messages, and Berth's own wording where the spec shows none. */
export const ssoMessages = {
  metadataRequired: 'must provide either metadata URL or metadata XML',
  enforcedRemoval: 'SSO must not be enforced to be removed',
  alreadyLoggedIn: 'You are already logged in!',
  metadataTooLong: tooLongMessage('Metadata', SAML_METADATA_BASE64_MAX_LENGTH),
  metadataNotBase64: 'Metadata must be the IdP metadata XML, base64-encoded',
  metadataUrlNotHttps: 'Metadata URL must be an https:// address',
  handleTooLong: tooLongMessage('SSO login ID', SSO_HANDLE_MAX_LENGTH),
  handleFormat:
    'SSO login ID must be 2 to 63 letters, digits, hyphens or underscores, starting and ending with a letter or digit',
  handleIsUuid: 'SSO login ID must not look like an organization id',
  handleTaken: 'This SSO login ID is already taken',
  defaultRoleRequired: 'Choose the role just-in-time provisioned members get',
  defaultRoleNotFound: 'The default role must be a role of this organization',
  alreadyConfigured: 'This organization already has a SAML configuration',
  saved: 'Saved changes successfully!',
} as const;

/** spec 1 §8: the SSO error page's texts by failure code (any other code reads as `unknown`). */
export const ssoFailureMessages = {
  invalid_credentials: "We couldn't sign you in with those credentials. Please try again.",
  access_denied: 'Access was denied by your identity provider.',
  configuration_error: "There's a configuration issue with SSO.",
  csrf_detected: 'Your session could not be verified. Please start the sign-in again.',
  unknown: "We couldn't complete SSO. Please try again, or contact support if this persists.",
} as const;
export type SsoFailureCode = keyof typeof ssoFailureMessages;

export function ssoFailureMessage(code: string | null | undefined): string {
  return Object.hasOwn(ssoFailureMessages, code ?? '')
    ? ssoFailureMessages[code as SsoFailureCode]
    : ssoFailureMessages.unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Bounded by the max-length check before it; no nested quantifier, so no backtracking blow-up.
const HANDLE = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?$/;

/** An SSO login ID (`handle`): a vanity name for /sso/:handle, never mistaken for an organization id. */
export const ssoHandle = boundedString(SSO_HANDLE_MAX_LENGTH, { tooLong: ssoMessages.handleTooLong })
  .trim()
  .refine((value) => value.length >= 2 && HANDLE.test(value), ssoMessages.handleFormat)
  .refine((value) => !UUID.test(value), ssoMessages.handleIsUuid);

/** spec 1 §5: metadata text is trimmed and base64-encoded before sending (UTF-8 first). */
export function encodeSamlMetadata(xml: string): string {
  const bytes = new TextEncoder().encode(xml.trim());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const metadataField = boundedString(SAML_METADATA_BASE64_MAX_LENGTH, { tooLong: ssoMessages.metadataTooLong })
  .trim()
  .nullish();
const metadataUrlField = boundedString(MAX_LENGTH.reference, {
  tooLong: tooLongMessage('Metadata URL', MAX_LENGTH.reference),
})
  .trim()
  .nullish();
const jitFields = {
  jit_enabled: z.boolean().optional(),
  default_role_id: boundedString(MAX_LENGTH.id).nullish(),
};

/**
 * `POST /organizations/:id/saml_configurations` (contract §5.4): the IdP's metadata as base64 XML or a
 * URL (one of the two), with an optional handle and just-in-time provisioning.
 */
export const samlConfigurationCreateInput = z
  .looseObject({
    metadata: metadataField,
    metadata_url: metadataUrlField,
    handle: ssoHandle.nullish(),
    ...jitFields,
  })
  .refine((body) => !!body.metadata || !!body.metadata_url, {
    error: ssoMessages.metadataRequired,
    path: ['metadata'],
  });
export type SamlConfigurationCreateInput = z.infer<typeof samlConfigurationCreateInput>;

/**
 * `PATCH /saml_configurations/:id`: new metadata (one of the two, spec 1 §5 "On edit, Save requires one
 * of them"), or a handle (null clears it), or the provisioning settings.
 */
export const samlConfigurationUpdateInput = z
  .looseObject({
    metadata: metadataField,
    metadata_url: metadataUrlField,
    handle: ssoHandle.nullish(),
    ...jitFields,
  })
  // `{handle}` or the provisioning settings alone change no metadata; a metadata field asks for one.
  .refine(
    (body) => !('metadata' in body || 'metadata_url' in body) || !!body.metadata || !!body.metadata_url,
    { error: ssoMessages.metadataRequired, path: ['metadata'] },
  );
export type SamlConfigurationUpdateInput = z.infer<typeof samlConfigurationUpdateInput>;

/**
 * The SSO settings page's metadata form (spec 1 §5): the metadata URL or the XML, one of them, each
 * trimmed. `samlMetadataPayload` makes the request body (the XML base64-encoded).
 */
export const samlMetadataForm = z
  .object({
    metadata_url: boundedString(MAX_LENGTH.reference, {
      tooLong: tooLongMessage('Metadata URL', MAX_LENGTH.reference),
    }).trim(),
    metadata_xml: boundedString(SAML_METADATA_MAX_BYTES, {
      tooLong: tooLongMessage('Metadata XML', SAML_METADATA_MAX_BYTES),
    }).trim(),
  })
  .refine((values) => values.metadata_url !== '' || values.metadata_xml !== '', {
    error: ssoMessages.metadataRequired,
    path: ['metadata_xml'],
  });
export type SamlMetadataForm = z.infer<typeof samlMetadataForm>;

export function samlMetadataPayload(values: SamlMetadataForm): { metadata: string; metadata_url: string } {
  return {
    metadata: values.metadata_xml ? encodeSamlMetadata(values.metadata_xml) : '',
    metadata_url: values.metadata_xml ? '' : values.metadata_url,
  };
}

/** The SSO login ID form (spec 1 §5: its button is disabled while empty or unchanged). */
export const ssoLoginIdForm = z.object({ handle: ssoHandle });
export type SsoLoginIdForm = z.infer<typeof ssoLoginIdForm>;

/** Just-in-time provisioning: on only with the role new members get. */
export const ssoProvisioningForm = z
  .object({ jit_enabled: z.boolean(), default_role_id: boundedString(MAX_LENGTH.id) })
  .refine((values) => !values.jit_enabled || values.default_role_id !== '', {
    error: ssoMessages.defaultRoleRequired,
    path: ['default_role_id'],
  });
export type SsoProvisioningForm = z.infer<typeof ssoProvisioningForm>;
