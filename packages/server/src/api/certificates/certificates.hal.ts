import type { CertificateResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { certificates } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type CertificateRow = typeof certificates.$inferSelect;

/**
 * Contract §4.3 certificate. The private key is sensitive (spec 1 §6): "" unless the caller has the
 * sensitive scope on the environment.
 */
export function toCertificateHal(
  certificate: CertificateRow,
  urls: FamilyUrls,
  options: { showKey: boolean },
): CertificateResource {
  const api = urls.api;
  return {
    id: String(certificate.id),
    _type: 'certificate' as const,
    common_name: certificate.commonName,
    certificate_body: certificate.certificateBody,
    leaf_certificate: certificate.leafCertificate,
    certificate_chain: certificate.certificateChain,
    private_key: options.showKey ? certificate.privateKey : '',
    private_key_algorithm: certificate.privateKeyAlgorithm,
    not_before: iso(certificate.notBefore),
    not_after: iso(certificate.notAfter),
    issuer_organization: certificate.issuerOrganization,
    issuer_common_name: certificate.issuerCommonName,
    issuer_country: certificate.issuerCountry,
    issuer_website: certificate.issuerWebsite,
    subject_country: certificate.subjectCountry,
    subject_state: certificate.subjectState,
    subject_locale: certificate.subjectLocale,
    subject_organization: certificate.subjectOrganization,
    subject_alternative_names: certificate.subjectAlternativeNames,
    sha256_fingerprint: certificate.sha256Fingerprint,
    acme: certificate.acme,
    trusted: certificate.trusted,
    self_signed: certificate.selfSigned,
    created_at: iso(certificate.createdAt),
    updated_at: iso(certificate.updatedAt),
    _links: links({
      self: `${api}/certificates/${certificate.id}`,
      account: `${api}/accounts/${certificate.environmentId}`,
      apps: `${api}/certificates/${certificate.id}/apps`,
      vhosts: `${api}/certificates/${certificate.id}/vhosts`,
    }),
  };
}
