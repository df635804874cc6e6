import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.1 user; `selected_organization` is there once the user has chosen one. */
export const userResource = z
  .strictObject({
    id: halId,
    _type: z.literal('user'),
    name: z.string(),
    email: z.string(),
    username: z.string(),
    verified: z.boolean(),
    otp_enabled: z.boolean(),
    superuser: z.boolean(),
    read_only_impersonate: z.boolean(),
    external_id: z.string().nullable(),
    public_key_fingerprint: z.null(),
    ssh_public_key: z.null(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(
      ['self', 'roles', 'ssh_keys', 'u2f_devices', 'email_verification_challenges'],
      ['selected_organization', 'current_otp_configuration'],
    ),
  })
  .meta({ id: 'User' });
export type UserResource = z.infer<typeof userResource>;

export const userCollection = halCollection('users', userResource).meta({ id: 'UserCollection' });
export type UserCollection = z.infer<typeof userCollection>;

/** `POST /claims/user` (contract §5.2): the address is free; the answer has no fields. */
export const userClaim = z.strictObject({}).meta({ id: 'UserClaim' });
export type UserClaim = z.infer<typeof userClaim>;
