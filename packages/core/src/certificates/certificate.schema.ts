import { z } from 'zod';
import { endpointMessages } from '../endpoints/endpoint.schema.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

// spec 2 §3, §5 and §8: certificates uploaded for custom HTTPS endpoints.

export const certificateMessages = {
  // spec 2 §5, literal: the custom HTTPS form asks for both.
  certificateRequired: endpointMessages.certificateRequired,
  privateKeyRequired: endpointMessages.privateKeyRequired,
  invalidCertificate: 'The certificate is not a valid PEM-encoded X.509 certificate',
  invalidPrivateKey:
    'The private key is not a valid PEM-encoded private key (encrypted keys are not supported)',
  multiplePrivateKeys: 'The private key must contain exactly one private key, not several',
  keyMismatch: 'The private key does not match the certificate',
  // spec 2 §8, literal.
  inUse: 'This certificate is still in use and cannot be deleted. Remove all endpoints before trying again.',
} as const;

const pem = (message: string) =>
  z
    .string({ error: message })
    .max(MAX_LENGTH.pem, { error: tooLongMessage('PEM text', MAX_LENGTH.pem), abort: true })
    .transform((value) => value.trim())
    .refine((value) => value !== '', { message });

/** `POST /accounts/:id/certificates` and `PATCH /certificates/:id` (contract §5.9): PEM text of both. */
export const createCertificateSchema = z.object({
  certificate_body: pem(certificateMessages.certificateRequired),
  private_key: pem(certificateMessages.privateKeyRequired),
});
export type CreateCertificateInput = z.infer<typeof createCertificateSchema>;

/** spec 2 §5: the typed confirmation of a certificate delete must equal its common name. */
export function certificateDeleteConfirmed(commonName: string, typed: string): boolean {
  return typed === commonName;
}

/** Contract §4.3: the fingerprint shows its first 7 characters. */
export function shortFingerprint(sha256Fingerprint: string): string {
  return sha256Fingerprint.slice(0, 7);
}
