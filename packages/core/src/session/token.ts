import { lastUrlSegment } from '../identity/references.ts';
// spec 1 §4 and contract §3.3/3.4: what the console derives from a token's JWT claims.

export interface TokenClaims {
  id?: string;
  iss?: string;
  sub?: string;
  scope?: string;
  exp?: number;
  email?: string;
  name?: string;
  email_verified?: boolean;
  session?: string | null;
  act?: { sub: string; email?: string; name?: string };
}

export const WRITE_SCOPES = ['manage', 'elevated', 'privileged'] as const;

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Reads the payload of a JWT without checking its signature (the server does that). */
export function decodeTokenClaims(accessToken: string): TokenClaims | null {
  const payload = accessToken.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(decodeBase64Url(payload));
    return claims && typeof claims === 'object' ? (claims as TokenClaims) : null;
  } catch {
    return null;
  }
}

export function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A session token is valid when its scope is non-empty and it has not expired. */
export function isSessionValid(claims: TokenClaims | null, now = nowInSeconds()): boolean {
  return !!claims?.scope && typeof claims.exp === 'number' && now < claims.exp;
}

export function isElevatedValid(claims: TokenClaims | null, now = nowInSeconds()): boolean {
  return isSessionValid(claims, now) && claims?.scope === 'elevated';
}

export function hasWriteAccess(claims: TokenClaims | null): boolean {
  return !!claims?.scope && (WRITE_SCOPES as readonly string[]).includes(claims.scope);
}

/** A token whose subject is an organization and which has an actor is an organization (SSO) token. */
export function isOrganizationToken(claims: TokenClaims | null): boolean {
  return !!claims?.sub?.includes('organizations') && !!claims.act;
}

/** The id a HAL href points at: its last path segment. */
export function idFromHref(href: string | null | undefined): string | null {
  if (!href) return null;
  const segment = lastUrlSegment(href.split('?')[0] ?? '');
  return segment ? segment : null;
}
