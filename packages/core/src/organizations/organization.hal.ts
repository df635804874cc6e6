import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.1 organization; contact fields are null until someone fills them in. */
export const organizationResource = z
  .strictObject({
    id: halId,
    _type: z.literal('organization'),
    name: z.string(),
    sso_enforced: z.boolean(),
    address: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    primary_phone: z.string().nullable(),
    emergency_phone: z.string().nullable(),
    ops_alert_email: z.string().nullable(),
    security_alert_email: z.string().nullable(),
    /** spec 1 §3 reauthRequired: the caller's token may not use it until they sign in again (SSO). */
    reauth_required: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'users', 'roles', 'invitations', 'billing_detail']),
  })
  .meta({ id: 'Organization' });
export type OrganizationResource = z.infer<typeof organizationResource>;

export const organizationCollection = halCollection('organizations', organizationResource).meta({
  id: 'OrganizationCollection',
});
export type OrganizationCollection = z.infer<typeof organizationCollection>;

/** An organization the current token may not use until the user signs in again (SSO enforced). */
export const reauthenticateOrganizationResource = organizationResource
  .extend({ reauth_required: z.literal(true) })
  .meta({ id: 'ReauthenticateOrganization' });
export type ReauthenticateOrganizationResource = z.infer<typeof reauthenticateOrganizationResource>;

export const reauthenticateOrganizationCollection = halCollection(
  'organizations',
  reauthenticateOrganizationResource,
).meta({ id: 'ReauthenticateOrganizationCollection' });
export type ReauthenticateOrganizationCollection = z.infer<typeof reauthenticateOrganizationCollection>;
