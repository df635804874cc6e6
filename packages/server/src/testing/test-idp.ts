import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { makeCertificate, type TestCertificate } from './test-certificates.ts';

/**
 * A SAML 2.0 identity provider the tests run themselves: its own RSA key and self-signed certificate,
 * its metadata, and signed Responses built for whatever a test needs (right or deliberately wrong).
 * Signatures are made with xml-crypto, as a real IdP's would be; nothing here is shared with the
 * service provider's checks.
 */

const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const certificateBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

const newId = () => `_${randomBytes(16).toString('hex')}`;

/** What the AuthnRequest in a login's redirect asked: its ID, the ACS URL and the SP's entity ID. */
export interface ReceivedAuthnRequest {
  id: string;
  acsUrl: string;
  issuer: string;
  relayState: string | null;
}

/** Reads the AuthnRequest of an HTTP-Redirect binding URL (deflated, base64, in `SAMLRequest`). */
export function readAuthnRequest(location: string): ReceivedAuthnRequest {
  const url = new URL(location);
  const encoded = url.searchParams.get('SAMLRequest');
  if (!encoded) throw new Error(`No SAMLRequest in ${location}`);
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const request = new DOMParser().parseFromString(xml, 'text/xml').documentElement;
  if (request?.localName !== 'AuthnRequest' || request.namespaceURI !== PROTOCOL_NS) {
    throw new Error('Not an AuthnRequest');
  }
  const issuer = request.getElementsByTagNameNS('urn:oasis:names:tc:SAML:2.0:assertion', 'Issuer')[0];
  return {
    id: request.getAttribute('ID') ?? '',
    acsUrl: request.getAttribute('AssertionConsumerServiceURL') ?? '',
    issuer: issuer?.textContent ?? '',
    relayState: url.searchParams.get('RelayState'),
  };
}

/** Everything a Response says; each test changes what it is about. */
export interface ResponseOptions {
  /** The ACS URL: the response's Destination and the assertion's Recipient unless given apart. */
  acsUrl: string;
  /** The SP's entity ID, the assertion's audience unless given apart. */
  audience: string;
  /** The AuthnRequest answered; null for an unsolicited (IdP-initiated) response. */
  inResponseTo: string | null;
  nameId: string;
  nameIdFormat?: string;
  /** Attributes by name (email, displayName, …). */
  attributes?: Record<string, string>;
  destination?: string;
  recipient?: string;
  issuer?: string;
  /** The moment the assertion is made (its validity is counted from it). */
  now?: Date;
  /** How long the assertion is valid from `now` (5 minutes). */
  validForMs?: number;
  /** Sign the assertion (the default) and/or the whole response. */
  signAssertion?: boolean;
  signResponse?: boolean;
  /** Sign with another key (its own certificate goes into KeyInfo): a foreign IdP. */
  signer?: TestCertificate;
  /** A SAML status other than Success (the IdP refused the person), with no assertion. */
  status?: string;
  /** Put this inside the document first (a DTD, for one). */
  prolog?: string;
  responseId?: string;
  assertionId?: string;
}

/** Signs the element with this `ID`, its Signature placed right after its Issuer (SAML's schema order). */
function sign(xml: string, id: string, signer: TestCertificate): string {
  const signature = new SignedXml({
    privateKey: signer.privateKeyPem,
    publicCert: signer.certificatePem,
    signatureAlgorithm: RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  signature.addReference({
    xpath: `//*[@ID='${id}']`,
    transforms: [ENVELOPED, EXC_C14N],
    digestAlgorithm: SHA256,
  });
  signature.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `//*[@ID='${id}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return signature.getSignedXml();
}

export interface TestIdp {
  entityId: string;
  ssoUrl: string;
  certificate: TestCertificate;
  /** The IdP's metadata XML (HTTP-Redirect sign-in at `ssoUrl`, its signing certificate). */
  metadata(): string;
  /** The metadata as the console sends it: trimmed and base64-encoded. */
  metadataBase64(): string;
  /** A Response as the XML text an IdP would POST (before base64). */
  responseXml(options: ResponseOptions): string;
  /** The `SAMLResponse` form field: the response, base64. */
  response(options: ResponseOptions): string;
}

export function createTestIdp(
  options: { entityId?: string; ssoUrl?: string; sloUrl?: string; certificate?: TestCertificate } = {},
): TestIdp {
  const entityId = options.entityId ?? `https://idp.example.com/${randomBytes(4).toString('hex')}`;
  const ssoUrl = options.ssoUrl ?? 'https://idp.example.com/sso';
  const certificate =
    options.certificate ?? makeCertificate({ keyType: 'rsa', subject: { commonName: 'Test IdP' }, days: 30 });

  function metadata(): string {
    const slo = options.sloUrl
      ? `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeXml(options.sloUrl)}"/>`
      : '';
    return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${escapeXml(entityId)}">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(certificate.certificatePem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    ${slo}
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escapeXml(ssoUrl)}/post"/>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${escapeXml(ssoUrl)}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
  }

  function responseXml(o: ResponseOptions): string {
    const now = o.now ?? new Date();
    const issueInstant = now.toISOString();
    const notBefore = new Date(now.getTime() - 30_000).toISOString();
    const notOnOrAfter = new Date(now.getTime() + (o.validForMs ?? 5 * 60_000)).toISOString();
    const responseId = o.responseId ?? newId();
    const assertionId = o.assertionId ?? newId();
    const issuer = escapeXml(o.issuer ?? entityId);
    const inResponseTo = o.inResponseTo === null ? '' : ` InResponseTo="${escapeXml(o.inResponseTo)}"`;
    const attributes = Object.entries(o.attributes ?? {})
      .map(
        ([name, value]) =>
          `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:unspecified"><saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
      )
      .join('');
    const assertion = o.status
      ? ''
      : `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${issueInstant}">` +
        `<saml:Issuer>${issuer}</saml:Issuer>` +
        `<saml:Subject><saml:NameID Format="${escapeXml(o.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress')}">${escapeXml(o.nameId)}</saml:NameID>` +
        `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} NotOnOrAfter="${notOnOrAfter}" Recipient="${escapeXml(o.recipient ?? o.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
        `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${escapeXml(o.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${issueInstant}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
        (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
        '</saml:Assertion>';
    const status = o.status ?? 'urn:oasis:names:tc:SAML:2.0:status:Success';
    let xml =
      `${o.prolog ?? ''}<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${responseId}" Version="2.0" IssueInstant="${issueInstant}" Destination="${escapeXml(o.destination ?? o.acsUrl)}"${inResponseTo}>` +
      `<saml:Issuer>${issuer}</saml:Issuer>` +
      `<samlp:Status><samlp:StatusCode Value="${escapeXml(status)}"/></samlp:Status>` +
      assertion +
      '</samlp:Response>';
    const signer = o.signer ?? certificate;
    if (!o.status && o.signAssertion !== false) xml = sign(xml, assertionId, signer);
    if (o.signResponse) xml = sign(xml, responseId, signer);
    return xml;
  }

  return {
    entityId,
    ssoUrl,
    certificate,
    metadata,
    metadataBase64: () => Buffer.from(metadata().trim(), 'utf8').toString('base64'),
    responseXml,
    response: (o) => Buffer.from(responseXml(o), 'utf8').toString('base64'),
  };
}

/**
 * A signature-wrapping (XSW) forgery of a signed response: a forged assertion for `forgedNameId` takes the
 * signed one's place (carrying its Signature), and the genuinely signed assertion is moved into the
 * response's Extensions, where a careless verifier would still find its signature valid.
 */
export function wrapSignedAssertion(signedResponseXml: string, forgedNameId: string): string {
  const document = new DOMParser().parseFromString(signedResponseXml, 'text/xml');
  const response = document.documentElement;
  if (!response) throw new Error('No response');
  const assertionNs = 'urn:oasis:names:tc:SAML:2.0:assertion';
  const original = response.getElementsByTagNameNS(assertionNs, 'Assertion')[0];
  if (!original) throw new Error('No assertion to wrap');
  const forged = original.cloneNode(true) as typeof original;
  forged.setAttribute('ID', newId());
  const texts = [
    ...Array.from(forged.getElementsByTagNameNS(assertionNs, 'NameID')),
    ...Array.from(forged.getElementsByTagNameNS(assertionNs, 'AttributeValue')),
  ];
  if (texts.length === 0) throw new Error('No NameID');
  for (const element of texts) {
    while (element.firstChild) element.removeChild(element.firstChild);
    element.appendChild(document.createTextNode(forgedNameId));
  }
  const extensions = document.createElementNS(PROTOCOL_NS, 'samlp:Extensions');
  response.replaceChild(forged, original);
  extensions.appendChild(original);
  response.insertBefore(extensions, response.getElementsByTagNameNS(PROTOCOL_NS, 'Status')[0] ?? null);
  return document.toString();
}
