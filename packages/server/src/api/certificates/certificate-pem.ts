import { createPrivateKey, createPublicKey, type KeyObject, X509Certificate } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { certificateMessages, delimitedBlocks } from '@berth/core';
import { unprocessable } from '../../http/errors.ts';

/** What the server reads out of an uploaded certificate and key (spec 2 §3 Certificate, contract §4.3). */
export interface ParsedCertificate {
  commonName: string;
  certificateBody: string;
  leafCertificate: string;
  certificateChain: string;
  privateKey: string;
  privateKeyAlgorithm: string;
  notBefore: Date;
  notAfter: Date;
  issuerOrganization: string;
  issuerCommonName: string;
  issuerCountry: string;
  issuerWebsite: string;
  subjectCountry: string;
  subjectState: string;
  subjectLocale: string;
  subjectOrganization: string;
  subjectAlternativeNames: string[];
  sha256Fingerprint: string;
  trusted: boolean;
  selfSigned: boolean;
}

/** The start of any private key block: PKCS#8 (`PRIVATE KEY`), PKCS#1 (`RSA …`), SEC1 (`EC …`), encrypted. */
const PEM_PRIVATE_KEY_START = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/g;

/** A certificate as PEM in one layout (LF line ends, 64 columns, nothing around it). */
const pemOf = (certificate: X509Certificate) => certificate.toString().trim();

/** "CN=example.com\nO=Acme" → { CN: 'example.com', O: 'Acme' } (Node's distinguished name layout). */
function distinguishedName(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return fields;
}

/** "DNS:a.example.com, DNS:b.example.com, IP Address:10.0.0.1" → the DNS names. */
function dnsNames(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  return subjectAltName
    .split(/,\s*/)
    .filter((entry) => entry.startsWith('DNS:'))
    .map((entry) => entry.slice(4).replace(/^"|"$/g, ''));
}

function spki(key: KeyObject): Buffer {
  return key.export({ type: 'spki', format: 'der' });
}

function keyAlgorithm(key: KeyObject): string {
  const type = key.asymmetricKeyType ?? 'unknown';
  const details = key.asymmetricKeyDetails;
  if (details?.modulusLength) return `${type.toUpperCase()} ${details.modulusLength}`;
  if (details?.namedCurve) return `${type.toUpperCase()} ${details.namedCurve}`;
  return type.toUpperCase();
}

let roots: X509Certificate[] | null = null;
function trustedRoots(): X509Certificate[] {
  roots ??= rootCertificates.flatMap((pem) => {
    try {
      return [new X509Certificate(pem)];
    } catch {
      return [];
    }
  });
  return roots;
}

/**
 * Trusted when the chain the user uploaded leads, link by link, to a root certificate Node trusts,
 * and the leaf is valid now.
 */
function isTrusted(chain: X509Certificate[], now: Date): boolean {
  const [leaf] = chain;
  if (!leaf || new Date(leaf.validFrom) > now || new Date(leaf.validTo) < now) return false;
  let current = leaf;
  for (const next of chain.slice(1)) {
    if (!current.checkIssued(next) || !current.verify(next.publicKey)) return false;
    current = next;
  }
  return trustedRoots().some((root) => current.checkIssued(root) && current.verify(root.publicKey));
}

/**
 * Parses PEM text for real (node:crypto): the leaf is the first certificate, the rest its chain; the
 * private key must be the leaf's, and alone. What is stored is what was parsed, written out again (the
 * certificates as PEM, the key as PKCS#8 PEM), never the uploaded text: whatever else it held (another
 * key, bag attributes, a key pasted into the certificate field) is not kept. Each problem is a 422
 * with a message the user can act on.
 */
export function parseCertificate(
  certificateBody: string,
  privateKeyPem: string,
  now = new Date(),
): ParsedCertificate {
  const blocks = delimitedBlocks(certificateBody, '-----BEGIN CERTIFICATE-----', '-----END CERTIFICATE-----');
  let chain: X509Certificate[];
  try {
    chain = blocks.map((block) => new X509Certificate(block));
  } catch {
    throw unprocessable(certificateMessages.invalidCertificate, { certificate_body: ['invalid'] });
  }
  const [leaf] = chain;
  if (!leaf) throw unprocessable(certificateMessages.invalidCertificate, { certificate_body: ['invalid'] });

  // node:crypto would take the first key and ignore the rest: refuse text with several instead.
  if ((privateKeyPem.match(PEM_PRIVATE_KEY_START) ?? []).length > 1) {
    throw unprocessable(certificateMessages.multiplePrivateKeys, { private_key: ['several keys'] });
  }
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: privateKeyPem, format: 'pem' });
  } catch {
    throw unprocessable(certificateMessages.invalidPrivateKey, { private_key: ['invalid'] });
  }
  if (!spki(createPublicKey(key)).equals(spki(leaf.publicKey))) {
    throw unprocessable(certificateMessages.keyMismatch, { private_key: ['mismatch'] });
  }

  const subject = distinguishedName(leaf.subject);
  const issuer = distinguishedName(leaf.issuer);
  const subjectAlternativeNames = dnsNames(leaf.subjectAltName);
  const selfSigned = leaf.checkIssued(leaf) && leaf.verify(leaf.publicKey);
  const pems = chain.map(pemOf);
  return {
    commonName: subject.CN ?? subjectAlternativeNames[0] ?? '',
    certificateBody: pems.join('\n'),
    leafCertificate: pemOf(leaf),
    certificateChain: pems.slice(1).join('\n'),
    privateKey: key.export({ type: 'pkcs8', format: 'pem' }).toString().trim(),
    privateKeyAlgorithm: keyAlgorithm(key),
    notBefore: new Date(leaf.validFrom),
    notAfter: new Date(leaf.validTo),
    issuerOrganization: issuer.O ?? '',
    issuerCommonName: issuer.CN ?? '',
    issuerCountry: issuer.C ?? '',
    issuerWebsite: '',
    subjectCountry: subject.C ?? '',
    subjectState: subject.ST ?? '',
    subjectLocale: subject.L ?? '',
    subjectOrganization: subject.O ?? '',
    subjectAlternativeNames,
    sha256Fingerprint: leaf.fingerprint256.replace(/:/g, '').toLowerCase(),
    trusted: !selfSigned && isTrusted(chain, now),
    selfSigned,
  };
}
