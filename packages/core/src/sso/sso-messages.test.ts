import { describe, expect, it } from 'vitest';
import { scimMessages } from '../permissions/permissions.ts';
import { ssoFailureMessage, ssoFailureMessages } from './saml-configuration.ts';

// spec 1 §8, word for word: the console's screens and the server's answers read these constants.
describe('SSO and provisioning messages (spec 1 §8)', () => {
  it('names each SSO failure code with the spec text, and any other code as unknown', () => {
    expect(ssoFailureMessages).toEqual({
      invalid_credentials: "We couldn't sign you in with those credentials. Please try again.",
      access_denied: 'Access was denied by your identity provider.',
      configuration_error: "There's a configuration issue with SSO.",
      csrf_detected: 'Your session could not be verified. Please start the sign-in again.',
      unknown: "We couldn't complete SSO. Please try again, or contact support if this persists.",
    });
    for (const other of ['toString', '__proto__', 'nope', '', null, undefined]) {
      expect(ssoFailureMessage(other)).toBe(ssoFailureMessages.unknown);
    }
  });

  it('says why a SCIM-managed membership cannot change', () => {
    expect(scimMessages.cannotAdd).toBe('Cannot add user: user and role are SCIM-managed');
    expect(scimMessages.cannotRemove).toBe('Cannot remove: user and role are SCIM-managed');
  });
});
