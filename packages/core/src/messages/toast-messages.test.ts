import { describe, expect, it } from 'vitest';
import { toastMessages } from './toast-messages.ts';

describe('success toasts (spec 1 §8)', () => {
  it.each([
    [toastMessages.saved, 'Saved changes successfully!'],
    [toastMessages.success, 'Success!'],
    [toastMessages.emailSent, 'Success! You should receive an email shortly.'],
    [toastMessages.userRolesUpdated, 'Successfully updated user roles!'],
    [toastMessages.invitationSent('bob@example.com'), 'Invitation sent to bob@example.com'],
    [toastMessages.invitationResent, 'Resent invitation to user'],
    [toastMessages.invitationRevoked, 'Revoked invitation'],
  ])('%j is the spec text', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
