import { createHash, X509Certificate } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { rootCertificates } from 'node:tls';
import { MAX_LENGTH, SAML_METADATA_MAX_BYTES, ssoMessages } from '@berth/core';
import { DOMParser } from '@xmldom/xmldom';
import { ApiError, unprocessable } from '../../http/errors.ts';
import { createOutboundGuard, type OutboundAllowList } from '../../security/outbound-guard.ts';

const METADATA_NS = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const UNSPECIFIED_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
/** The whole fetch of a metadata URL, however slowly the IdP answers. */
const FETCH_DEADLINE_MS = 10_000;

/** What Berth keeps of an IdP's metadata (contract §4.1 saml_configuration). */
export interface IdpMetadata {
  entityId: string;
  signInUrl: string;
  signOutUrl: string | null;
  nameFormat: string | null;
  /** The IdP's signing certificate, PEM. */
  certificate: string;
}

const metadataError = (message: string) => unprocessable(message, { metadata: [message] });

/**
 * Refuses what no SAML message or metadata needs and what XML parsers have been attacked through: a
 * document type declaration (entity expansion, external entities). Checked on the text, before parsing.
 */
export function hasDoctype(xml: string): boolean {
  return /<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml);
}

/** Parses XML strictly (any parser error or warning refuses it); a DTD is refused before parsing. */
export function parseXml(xml: string, what: string): Document {
  if (hasDoctype(xml)) throw new Error(`${what} must not contain a document type declaration`);
  const fail = (message: string) => {
    throw new Error(`${what} is not well-formed XML: ${message.split('\n')[0]?.slice(0, 200)}`);
  };
  const document = new DOMParser({
    locator: {},
    errorHandler: { warning: fail, error: fail, fatalError: fail },
  }).parseFromString(xml, 'text/xml');
  if (!document?.documentElement) throw new Error(`${what} is not an XML document`);
  return document as unknown as Document;
}

function children(parent: Element | Document, namespace: string, name: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(namespace, name) as unknown as ArrayLike<Element>);
}

/** A PEM certificate from the base64 DER in an `<ds:X509Certificate>`; null when it is not one. */
export function certificateFromBase64(text: string): string | null {
  const der = text.replace(/\s+/g, '');
  if (der === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(der)) return null;
  const lines = der.match(/.{1,64}/g) ?? [];
  const pem = `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
    return pem;
  } catch {
    return null;
  }
}

/** The certificate's SHA-256 fingerprint, as IdPs show it (upper-case hex pairs joined by colons). */
export function certificateFingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}

/** The base64 DER of a PEM certificate, as metadata and the console show it. */
export function certificateBody(pem: string): string {
  return new X509Certificate(pem).raw.toString('base64');
}

const webUrl = (value: string | null | undefined): string | null => {
  const text = (value ?? '').trim();
  if (text === '' || text.length > MAX_LENGTH.reference || !URL.canParse(text)) return null;
  const { protocol } = new URL(text);
  return protocol === 'https:' || protocol === 'http:' ? text : null;
};

/**
 * Reads an IdP's metadata XML: its entityID, the HTTP-Redirect sign-in URL (the binding Berth sends its
 * AuthnRequests with), the sign-out URL, the NameID format and the signing certificate. Anything missing
 * or malformed is a 422 naming it.
 */
export function readIdpMetadata(xml: string): IdpMetadata {
  if (Buffer.byteLength(xml) > SAML_METADATA_MAX_BYTES) {
    throw metadataError(`Metadata must be at most ${SAML_METADATA_MAX_BYTES / 1024} KB of XML`);
  }
  let document: Document;
  try {
    document = parseXml(xml, 'Metadata');
  } catch (error) {
    throw metadataError((error as Error).message);
  }
  // An EntitiesDescriptor (a federation's file) is read for its first identity provider.
  const descriptor = children(document, METADATA_NS, 'EntityDescriptor').find(
    (entity) => children(entity, METADATA_NS, 'IDPSSODescriptor').length > 0,
  );
  if (!descriptor) throw metadataError('Metadata has no identity provider (an IDPSSODescriptor)');
  const entityId = descriptor.getAttribute('entityID')?.trim() ?? '';
  if (entityId === '' || entityId.length > MAX_LENGTH.reference) {
    throw metadataError('Metadata has no entityID');
  }
  const idp = children(descriptor, METADATA_NS, 'IDPSSODescriptor')[0] as Element;
  const services = children(idp, METADATA_NS, 'SingleSignOnService');
  const redirect = services.find((service) => service.getAttribute('Binding') === REDIRECT_BINDING);
  const signInUrl = webUrl(redirect?.getAttribute('Location'));
  if (!signInUrl) {
    throw metadataError(
      'Metadata has no http(s) SingleSignOnService for the HTTP-Redirect binding, which Berth signs in with',
    );
  }
  const logouts = children(idp, METADATA_NS, 'SingleLogoutService');
  const logout =
    logouts.find((service) => service.getAttribute('Binding') === REDIRECT_BINDING) ?? logouts[0];
  const nameFormat = children(idp, METADATA_NS, 'NameIDFormat')[0]?.textContent?.trim() || null;
  // A signing key: `use="signing"`, or no `use` (both uses).
  const keys = children(idp, METADATA_NS, 'KeyDescriptor').filter((key) => {
    const use = key.getAttribute('use');
    return !use || use === 'signing';
  });
  const certificate = keys
    .flatMap((key) => children(key, DSIG_NS, 'X509Certificate'))
    .map((element) => certificateFromBase64(element.textContent ?? ''))
    .find((pem): pem is string => pem !== null);
  if (!certificate) throw metadataError('Metadata has no signing certificate (an X509Certificate)');
  return {
    entityId,
    signInUrl,
    signOutUrl: webUrl(logout?.getAttribute('Location')),
    nameFormat: nameFormat && nameFormat.length <= MAX_LENGTH.reference ? nameFormat : UNSPECIFIED_NAME_ID,
    certificate,
  };
}

/** The XML of the console's base64 metadata (spec 1 §5: trimmed and base64-encoded before sending). */
export function decodeMetadata(base64: string): string {
  const text = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw metadataError(ssoMessages.metadataNotBase64);
  const xml = Buffer.from(text, 'base64').toString('utf8').trim();
  if (!xml.startsWith('<')) throw metadataError(ssoMessages.metadataNotBase64);
  return xml;
}

/** How metadata URLs are reached: what the guard lets through besides public addresses, extra CAs. */
export interface MetadataFetchOptions {
  allow: OutboundAllowList;
  ca: readonly string[];
}

/**
 * Fetches an IdP's metadata over https only, through the outbound guard (a tenant must not make the
 * server read its own network), within a deadline and a size limit, following no redirect.
 */
export function fetchMetadata(url: string, options: MetadataFetchOptions): Promise<string> {
  const refused = (message: string) => metadataError(message);
  if (url.length > MAX_LENGTH.reference || !URL.canParse(url)) throw refused(ssoMessages.metadataUrlNotHttps);
  const target = new URL(url);
  if (target.protocol !== 'https:' || target.username || target.password) {
    throw refused(ssoMessages.metadataUrlNotHttps);
  }
  const guard = createOutboundGuard(
    options.allow,
    (reason) => new ApiError(422, 'unprocessable_entity', `${reason}: metadata URLs must be public`),
  );
  guard.checkHost(target.hostname);
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      clearTimeout(deadline);
      reject(
        error instanceof ApiError
          ? error
          : refused(`Cannot fetch the metadata URL: ${(error as Error).message.slice(0, 200)}`),
      );
    };
    const request = httpsRequest(
      target,
      {
        method: 'GET',
        headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
        ...(options.ca.length ? { ca: [...rootCertificates, ...options.ca] } : {}),
        ...(guard.lookup ? { lookup: guard.lookup } : {}),
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          return fail(refused(`The metadata URL answered ${response.statusCode}, not 200`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > SAML_METADATA_MAX_BYTES) {
            request.destroy(
              refused(`The metadata URL answered more than ${SAML_METADATA_MAX_BYTES / 1024} KB`),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          clearTimeout(deadline);
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
        response.on('error', fail);
      },
    );
    const deadline = setTimeout(
      () => request.destroy(refused(`The metadata URL did not answer in ${FETCH_DEADLINE_MS / 1000} s`)),
      FETCH_DEADLINE_MS,
    );
    request.on('error', fail);
    request.end();
  });
}

/** A SHA-256 of text, hex (for binding cookies and ids that must not be stored as they are). */
export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');
