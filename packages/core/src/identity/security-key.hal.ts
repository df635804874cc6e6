import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.1 u2f device: a WebAuthn security key (`key_handle` is the credential id, base64url). */
export const u2fDeviceResource = z
  .strictObject({
    id: halId,
    _type: z.literal('u2f_device'),
    name: z.string(),
    version: z.string(),
    key_handle: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'user']),
  })
  .meta({ id: 'U2fDevice' });
export type U2fDeviceResource = z.infer<typeof u2fDeviceResource>;

export const u2fDeviceCollection = halCollection('u2f_devices', u2fDeviceResource).meta({
  id: 'U2fDeviceCollection',
});
export type U2fDeviceCollection = z.infer<typeof u2fDeviceCollection>;

/**
 * Contract §4.1 u2f_challenge (not HAL): `payload` is WebAuthn creation options in webauthn-json form,
 * passed straight to the browser.
 */
export const u2fChallengeResource = z
  .object({
    id: z.string(),
    challenge: z.string(),
    payload: z.looseObject({ challenge: z.string() }),
  })
  .meta({ id: 'U2fChallenge' });
export type U2fChallengeResource = z.infer<typeof u2fChallengeResource>;
