import { z } from 'zod';
import { boundedString } from '../text/bounded-string.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

/** Spec 1 §5: what the security key screens say. */
export const securityKeyMessages = {
  nameRequired: 'Name must not be blank',
  challengeMissing: 'Could not load u2f challenge',
  unsupported: 'This browser does not support security keys (public key credentials)',
  invalid: 'The security key could not be verified',
  added: 'Security key added',
  deleted: 'Security key deleted',
} as const;

export const SECURITY_KEY_NAME_MAX_LENGTH = 100;
/** Base64url WebAuthn fields: attestation objects with certificates stay well under 16 KiB. */
export const WEBAUTHN_FIELD_MAX_LENGTH = 16 * 1024;
/** Security key challenges live this long (seconds). */
export const U2F_CHALLENGE_TTL_SECONDS = 5 * 60;

const field = (label: string) =>
  boundedString(WEBAUTHN_FIELD_MAX_LENGTH, {
    required: `${label} must not be empty`,
    tooLong: tooLongMessage(label, WEBAUTHN_FIELD_MAX_LENGTH),
  });
const keyword = (label: string) =>
  z.string().max(MAX_LENGTH.keyword, { error: tooLongMessage(label, MAX_LENGTH.keyword), abort: true });

/** A WebAuthn attestation (registration) response in webauthn-json form (contract §5.2). */
export const webAuthnAttestationJson = z.looseObject({
  id: field('id'),
  rawId: field('rawId'),
  type: keyword('type'),
  response: z.looseObject({
    clientDataJSON: field('clientDataJSON'),
    attestationObject: field('attestationObject'),
    transports: z.array(keyword('transports')).max(10).optional(),
  }),
  clientExtensionResults: z.looseObject({}).default({}),
  authenticatorAttachment: keyword('authenticatorAttachment').optional(),
});
export type WebAuthnAttestationJson = z.infer<typeof webAuthnAttestationJson>;

/** A WebAuthn assertion (authentication) response in webauthn-json form (contract §3.2 `u2f`). */
export const webAuthnAssertionJson = z.looseObject({
  id: field('id'),
  rawId: field('rawId'),
  type: keyword('type'),
  response: z.looseObject({
    clientDataJSON: field('clientDataJSON'),
    authenticatorData: field('authenticatorData'),
    signature: field('signature'),
    userHandle: field('userHandle').nullish(),
  }),
  clientExtensionResults: z.looseObject({}).default({}),
  authenticatorAttachment: keyword('authenticatorAttachment').nullish(),
});
export type WebAuthnAssertionJson = z.infer<typeof webAuthnAssertionJson>;

/** `POST /users/:id/u2f_devices` body (contract §5.2). */
export const u2fDeviceInput = z.object({
  name: boundedString(SECURITY_KEY_NAME_MAX_LENGTH, {
    required: securityKeyMessages.nameRequired,
    tooLong: tooLongMessage('Name', SECURITY_KEY_NAME_MAX_LENGTH),
  })
    .trim()
    .min(1, securityKeyMessages.nameRequired),
  version: keyword('version').optional(),
  u2f: webAuthnAttestationJson,
});
export type U2fDeviceInput = z.infer<typeof u2fDeviceInput>;

/** The Add Security Key form. */
export const securityKeyFormSchema = z.object({
  name: boundedString(SECURITY_KEY_NAME_MAX_LENGTH, {
    tooLong: tooLongMessage('Name', SECURITY_KEY_NAME_MAX_LENGTH),
  })
    .trim()
    .min(1, securityKeyMessages.nameRequired),
});
