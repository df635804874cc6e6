import { SSH_RSA_MIN_BITS, sshKeyMessages } from '@berth/core';
import type sshpk from 'sshpk';
import { unprocessable } from '../../http/errors.ts';

export interface ParsedSshKey {
  /** The key in canonical OpenSSH one-line form, with its comment. */
  publicKey: string;
  md5Fingerprint: string;
  sha256Fingerprint: string;
}

const ACCEPTED = new Set(['ed25519', 'ecdsa', 'rsa']);

/**
 * Parses one OpenSSH public key line and checks it is a type and size Berth accepts (RSA of at least
 * 2048 bits, ECDSA, ed25519); any failure is a 422 with a message the console shows as is. The key
 * library is imported with the first key (some 1.5 MB of heap a server would otherwise hold idle).
 */
export async function parseSshPublicKey(text: string): Promise<ParsedSshKey> {
  const line = text.trim();
  if (/PRIVATE KEY/.test(line)) throw unprocessable(sshKeyMessages.privateKey);
  // One key per submission: a pasted authorized_keys file with several lines is refused, not half-read.
  if (/[\r\n]/.test(line)) throw unprocessable(sshKeyMessages.notAKey);
  const { default: keys } = await import('sshpk');
  let key: sshpk.Key;
  try {
    key = keys.parseKey(line, 'ssh');
  } catch {
    throw unprocessable(sshKeyMessages.notAKey);
  }
  if (key.type === 'dsa') throw unprocessable(sshKeyMessages.dsaRefused);
  if (!ACCEPTED.has(key.type)) throw unprocessable(sshKeyMessages.typeRefused(key.type));
  if (key.type === 'rsa' && key.size < SSH_RSA_MIN_BITS) {
    throw unprocessable(sshKeyMessages.rsaTooShort(key.size));
  }
  return {
    publicKey: key.toString('ssh'),
    md5Fingerprint: key.fingerprint('md5').toString('hex'),
    sha256Fingerprint: key.fingerprint('sha256').toString('base64'),
  };
}
