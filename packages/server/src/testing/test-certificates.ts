import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

/**
 * Real X.509 certificates for tests, built with node:crypto and a small DER encoder (no certificate
 * library is installed): self-signed, or signed by another test certificate's key to make a chain.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

const tlv = (tag: number, content: Buffer) =>
  Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const printable = (text: string) => tlv(0x13, Buffer.from(text, 'ascii'));
const octets = (content: Buffer) => tlv(0x04, content);
const bitString = (content: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
const NULL = Buffer.from([0x05, 0x00]);

function integer(value: Buffer): Buffer {
  let bytes = value;
  while (bytes.length > 1 && bytes[0] === 0 && ((bytes[1] ?? 0) & 0x80) === 0) bytes = bytes.subarray(1);
  if (((bytes[0] ?? 0) & 0x80) !== 0) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * a + b];
  for (const part of rest) {
    const chunk: number[] = [part & 0x7f];
    for (let value = part >>> 7; value > 0; value >>>= 7) chunk.unshift((value & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(date: Date): Buffer {
  const text = date.toISOString().replace(/[-:T]/g, '').slice(2, 14);
  return tlv(0x17, Buffer.from(`${text}Z`, 'ascii'));
}

export interface NameFields {
  commonName: string;
  organization?: string;
  country?: string;
  state?: string;
  locality?: string;
}

function name(fields: NameFields): Buffer {
  const attributes: [string, Buffer][] = [];
  if (fields.country) attributes.push(['2.5.4.6', printable(fields.country)]);
  if (fields.state) attributes.push(['2.5.4.8', utf8(fields.state)]);
  if (fields.locality) attributes.push(['2.5.4.7', utf8(fields.locality)]);
  if (fields.organization) attributes.push(['2.5.4.10', utf8(fields.organization)]);
  attributes.push(['2.5.4.3', utf8(fields.commonName)]);
  return sequence(...attributes.map(([type, value]) => set(sequence(oid(type), value))));
}

function signatureAlgorithm(key: KeyObject): Buffer {
  return key.asymmetricKeyType === 'rsa'
    ? sequence(oid('1.2.840.113549.1.1.11'), NULL) // sha256WithRSAEncryption
    : sequence(oid('1.2.840.10045.4.3.2')); // ecdsa-with-SHA256
}

export interface TestCertificate {
  certificatePem: string;
  privateKeyPem: string;
  privateKey: KeyObject;
  subject: NameFields;
}

/**
 * A certificate for `subject` valid from `notBefore` for `days` days, with DNS subject alternative
 * names; self-signed unless `issuer` (another test certificate) is given.
 */
export function makeCertificate(
  options: {
    subject?: Partial<NameFields>;
    altNames?: string[];
    keyType?: 'ec' | 'rsa';
    notBefore?: Date;
    days?: number;
    issuer?: TestCertificate;
  } = {},
): TestCertificate {
  const subject: NameFields = { commonName: 'www.example.com', ...options.subject };
  const { privateKey, publicKey } =
    options.keyType === 'rsa'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const signer = options.issuer?.privateKey ?? privateKey;
  const notBefore = options.notBefore ?? new Date(Date.now() - 24 * 3600_000);
  const notAfter = new Date(notBefore.getTime() + (options.days ?? 365) * 24 * 3600_000);
  const altNames = options.altNames ?? [subject.commonName];
  const extensions = altNames.length
    ? [
        explicit(
          3,
          sequence(
            sequence(
              oid('2.5.29.17'),
              octets(sequence(...altNames.map((dns) => tlv(0x82, Buffer.from(dns, 'ascii'))))),
            ),
          ),
        ),
      ]
    : [];
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(randomBytes(12)),
    signatureAlgorithm(signer),
    name(options.issuer?.subject ?? subject),
    sequence(utcTime(notBefore), utcTime(notAfter)),
    name(subject),
    publicKey.export({ type: 'spki', format: 'der' }),
    ...extensions,
  );
  const certificate = sequence(tbs, signatureAlgorithm(signer), bitString(sign('sha256', tbs, signer)));
  const base64 = certificate
    .toString('base64')
    .replace(/(.{64})/g, '$1\n')
    .trim();
  return {
    certificatePem: `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey,
    subject,
  };
}
