import { webcrypto } from 'node:crypto';

/** The organization's service-provider key pair: its certificate (PEM) and private key (PKCS#8 PEM). */
export interface SpKeyPair {
  certificate: string;
  privateKey: string;
}

const SP_CERTIFICATE_YEARS = 10;

const pem = (label: string, der: ArrayBuffer) =>
  `-----BEGIN ${label}-----\n${(
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? []
  ).join('\n')}\n-----END ${label}-----\n`;

/**
 * A new RSA key pair and self-signed certificate for an organization's SP metadata: IdPs take it to check
 * what Berth signs (its AuthnRequests) and to encrypt to it. Self-signed is what SAML metadata uses: trust
 * comes from the metadata exchange, not a certificate authority.
 */
export async function generateSpKeyPair(organizationId: string): Promise<SpKeyPair> {
  const algorithm = {
    name: 'RSASSA-PKCS1-v1_5',
    hash: 'SHA-256',
    publicExponent: new Uint8Array([1, 0, 1]),
    modulusLength: 2048,
  };
  // Loaded when first needed (a configuration is made rarely); the library wants the metadata polyfill.
  await import('reflect-metadata');
  const { X509CertificateGenerator } = await import('@peculiar/x509');
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  const notBefore = new Date();
  const notAfter = new Date(notBefore);
  notAfter.setFullYear(notAfter.getFullYear() + SP_CERTIFICATE_YEARS);
  const certificate = await X509CertificateGenerator.createSelfSigned(
    { name: `CN=Berth SAML SP ${organizationId}`, notBefore, notAfter, keys, signingAlgorithm: algorithm },
    webcrypto as unknown as Crypto,
  );
  const privateKey = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certificate: certificate.toString('pem'), privateKey: pem('PRIVATE KEY', privateKey) };
}
