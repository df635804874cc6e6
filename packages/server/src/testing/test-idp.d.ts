import { type TestCertificate } from './test-certificates.ts';
/** What the AuthnRequest in a login's redirect asked: its ID, the ACS URL and the SP's entity ID. */
export interface ReceivedAuthnRequest {
  id: string;
  acsUrl: string;
  issuer: string;
  relayState: string | null;
}
/** Reads the AuthnRequest of an HTTP-Redirect binding URL (deflated, base64, in `SAMLRequest`). */
export declare function readAuthnRequest(location: string): ReceivedAuthnRequest;
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
export declare function createTestIdp(options?: {
  entityId?: string;
  ssoUrl?: string;
  sloUrl?: string;
  certificate?: TestCertificate;
}): TestIdp;
/**
 * A signature-wrapping (XSW) forgery of a signed response: a forged assertion for `forgedNameId` takes the
 * signed one's place (carrying its Signature), and the genuinely signed assertion is moved into the
 * response's Extensions, where a careless verifier would still find its signature valid.
 */
export declare function wrapSignedAssertion(signedResponseXml: string, forgedNameId: string): string;
