import { describe, expect, it } from 'vitest';
import {
  decodeTokenClaims,
  hasWriteAccess,
  idFromHref,
  isElevatedValid,
  isOrganizationToken,
  isSessionValid,
} from './token.ts';

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${encode({ alg: 'HS256' })}.${encode(claims)}.sig`;

describe('token claims (spec 1 §4)', () => {
  it('decodes unpadded base64url payloads, including non-ASCII names', () => {
    expect(decodeTokenClaims(jwt({ scope: 'manage', name: 'Zoë' }))).toEqual({
      scope: 'manage',
      name: 'Zoë',
    });
    expect(decodeTokenClaims('garbage')).toBeNull();
  });

  it('a session is valid with a scope and an exp in the future', () => {
    expect(isSessionValid({ scope: 'manage', exp: 200 }, 100)).toBe(true);
    expect(isSessionValid({ scope: 'manage', exp: 100 }, 100)).toBe(false);
    expect(isSessionValid({ scope: '', exp: 200 }, 100)).toBe(false);
    expect(isElevatedValid({ scope: 'manage', exp: 200 }, 100)).toBe(false);
    expect(isElevatedValid({ scope: 'elevated', exp: 200 }, 100)).toBe(true);
  });

  it('write access is manage, elevated or privileged', () => {
    expect(hasWriteAccess({ scope: 'manage' })).toBe(true);
    expect(hasWriteAccess({ scope: 'privileged' })).toBe(true);
    expect(hasWriteAccess({ scope: 'read' })).toBe(false);
  });

  it('an organization token has an organization subject and an actor', () => {
    expect(isOrganizationToken({ sub: 'https://a/organizations/1', act: { sub: 'https://a/users/2' } })).toBe(
      true,
    );
    expect(isOrganizationToken({ sub: 'https://a/organizations/1' })).toBe(false);
  });

  it('takes ids from the last segment of an href', () => {
    expect(idFromHref('http://x/auth/users/abc')).toBe('abc');
    expect(idFromHref('http://x/api/stacks/7/')).toBe('7');
    expect(idFromHref('')).toBeNull();
  });
});
