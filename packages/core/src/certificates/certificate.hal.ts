import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/**
 * Contract §4.3 certificate, parsed from the uploaded PEM. The private key is sensitive (spec 1 §6): ""
 * unless the caller has the sensitive scope on the environment.
 */
export const certificateResource = z
  .strictObject({
    id: halId,
    _type: z.literal('certificate'),
    common_name: z.string(),
    certificate_body: z.string(),
    leaf_certificate: z.string(),
    certificate_chain: z.string(),
    private_key: z.string(),
    private_key_algorithm: z.string(),
    not_before: isoTimestamp,
    not_after: isoTimestamp,
    issuer_organization: z.string(),
    issuer_common_name: z.string(),
    issuer_country: z.string(),
    issuer_website: z.string(),
    subject_country: z.string(),
    subject_state: z.string(),
    subject_locale: z.string(),
    subject_organization: z.string(),
    subject_alternative_names: z.array(z.string()),
    sha256_fingerprint: z.string(),
    acme: z.boolean(),
    trusted: z.boolean(),
    self_signed: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'account', 'apps', 'vhosts']),
  })
  .meta({ id: 'Certificate' });
export type CertificateResource = z.infer<typeof certificateResource>;

export const certificateCollection = halCollection('certificates', certificateResource).meta({
  id: 'CertificateCollection',
});
export type CertificateCollection = z.infer<typeof certificateCollection>;
