import { type CertificateResource, shortFingerprint } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3 certificate as the console reads it (the certificates screens, the endpoint forms). */
export interface Certificate {
  id: string;
  /** The absolute api URL the endpoint requests refer to it by (contract §1.9). */
  href: string;
  commonName: string;
  notBefore: string;
  notAfter: string;
  issuerOrganization: string;
  issuerCommonName: string;
  subjectAlternativeNames: string[];
  sha256Fingerprint: string;
  acme: boolean;
  trusted: boolean;
  selfSigned: boolean;
  environmentId: string | null;
  createdAt: string;
}

export function fromCertificateResource(certificate: CertificateResource): Certificate {
  return {
    id: idOf(certificate),
    href: certificate._links.self.href,
    commonName: certificate.common_name,
    notBefore: certificate.not_before,
    notAfter: certificate.not_after,
    issuerOrganization: certificate.issuer_organization,
    issuerCommonName: certificate.issuer_common_name,
    subjectAlternativeNames: certificate.subject_alternative_names,
    sha256Fingerprint: certificate.sha256_fingerprint,
    acme: certificate.acme,
    trusted: certificate.trusted,
    selfSigned: certificate.self_signed,
    environmentId: linkId(certificate, 'account'),
    createdAt: certificate.created_at,
  };
}

/** contract §4.3: an empty common name shows as Unknown. */
export function commonNameLabel(certificate: Pick<Certificate, 'commonName'>): string {
  return certificate.commonName || 'Unknown';
}

function day(value: string): string {
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString().slice(0, 10) : 'Unknown';
}

/** spec 2 §2 Date Range: valid from, to. */
export function dateRangeLabel(certificate: Pick<Certificate, 'notBefore' | 'notAfter'>): string {
  return `${day(certificate.notBefore)} - ${day(certificate.notAfter)}`;
}

export function issuerLabel(certificate: Pick<Certificate, 'issuerOrganization' | 'issuerCommonName'>) {
  return certificate.issuerOrganization || certificate.issuerCommonName || 'Unknown';
}

/** spec 2 §2 Trust Status. */
export function trustStatusLabel(certificate: Pick<Certificate, 'trusted' | 'selfSigned'>): string {
  if (certificate.trusted) return 'Trusted';
  return certificate.selfSigned ? 'Self-signed (untrusted)' : 'Untrusted';
}

export function fingerprintLabel(certificate: Pick<Certificate, 'sha256Fingerprint'>): string {
  return shortFingerprint(certificate.sha256Fingerprint) || '-';
}
