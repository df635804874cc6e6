import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/**
 * A software security key for tests: an ES256 (P-256) credential that answers WebAuthn creation and
 * request options with 'none' attestations and signed assertions, as a browser would send them.
 */
export function softwareAuthenticator(options: { origin: string; rpId?: string }) {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = randomBytes(32);
  let counter = 0;

  function clientData(type: string, challenge: string, origin = options.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  function authData(rpId: string, flags: number, count: number, attested?: Buffer) {
    const head = Buffer.alloc(37);
    sha256(rpId).copy(head, 0);
    head.writeUInt8(flags, 32);
    head.writeUInt32BE(count, 33);
    return attested ? Buffer.concat([head, attested]) : head;
  }

  return {
    credentialId: b64url(credentialId),
    /** Sets the next signature counter (to replay an old one). */
    setCounter(value: number) {
      counter = value;
    },
    /** An attestation response to creation options (`payload` of a u2f_challenge). */
    attest(payload: { challenge: string; rp?: { id?: string } }, override: { origin?: string } = {}) {
      const rpId = options.rpId ?? payload.rp?.id ?? '';
      const cose = new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credentialId.length);
      const attested = Buffer.concat([
        Buffer.alloc(16),
        idLength,
        credentialId,
        Buffer.from(isoCBOR.encode(cose)),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', authData(rpId, 0x41, counter, attested)],
        ]),
      );
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', payload.challenge, override.origin)),
          attestationObject: b64url(attestationObject),
          transports: ['usb'],
        },
        clientExtensionResults: {},
      };
    },
    /** A signed assertion for request options (`exception_context.u2f.payload`); the counter goes up. */
    assert(payload: { challenge: string; rpId?: string }, override: { origin?: string } = {}) {
      counter += 1;
      const data = authData(options.rpId ?? payload.rpId ?? '', 0x01, counter);
      const client = clientData('webauthn.get', payload.challenge, override.origin);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle: null,
        },
        clientExtensionResults: {},
      };
    },
  };
}
