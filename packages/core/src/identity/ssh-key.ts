import { z } from 'zod';
import { boundedString } from '../text/bounded-string.ts';
import { tooLongMessage } from '../text/limits.ts';
import { requiredText } from './identity.schema.ts';

/** An OpenSSH public key line is a few hundred characters; 16 KiB leaves room for any real key. */
export const SSH_PUBLIC_KEY_MAX_LENGTH = 16 * 1024;
export const SSH_KEY_NAME_MAX_LENGTH = 100;
/** The smallest RSA modulus accepted, in bits. */
export const SSH_RSA_MIN_BITS = 2048;

/** The messages of SSH key validation, shared by the server (which parses the key) and the console. */
export const sshKeyMessages = {
  keyRequired: 'Public key must not be empty',
  keyTooLong: tooLongMessage('Public key', SSH_PUBLIC_KEY_MAX_LENGTH),
  notAKey:
    'This is not a valid SSH public key. Paste one line like "ssh-ed25519 AAAA… you@example.com" (the contents of your .pub file).',
  privateKey:
    'This is a private key. Never share it: paste the public key (the contents of the .pub file) instead.',
  rsaTooShort: (bits: number) =>
    `RSA keys must be at least ${SSH_RSA_MIN_BITS} bits long; this one has ${bits} bits. Generate a new key, for example with "ssh-keygen -t ed25519".`,
  dsaRefused: 'DSA keys are no longer accepted. Use an ed25519, ECDSA or RSA (2048 bits or more) key.',
  typeRefused: (type: string) =>
    `Keys of type ${type} are not accepted. Use an ed25519, ECDSA or RSA (2048 bits or more) key.`,
  duplicate: (name: string) => `This SSH key has already been added to your account (as "${name}").`,
  deleted: 'SSH key deleted',
  added: 'SSH key added',
} as const;

/** `POST /users/:id/ssh_keys` body (contract §5.2). The server parses and checks the key itself. */
export const sshKeyInput = z.object({
  name: requiredText('Name', SSH_KEY_NAME_MAX_LENGTH),
  ssh_public_key: boundedString(SSH_PUBLIC_KEY_MAX_LENGTH, {
    required: sshKeyMessages.keyRequired,
    tooLong: sshKeyMessages.keyTooLong,
  })
    .trim()
    .min(1, sshKeyMessages.keyRequired),
});
export type SshKeyInput = z.infer<typeof sshKeyInput>;
