// spec 1 §8 "Success toasts": the confirmations the console shows, each written once. The catalogue has
// more (payment method, contact settings, SSO enforcement...); they join here with their screens.

export const toastMessages = {
  saved: 'Saved changes successfully!',
  success: 'Success!',
  emailSent: 'Success! You should receive an email shortly.',
  userRolesUpdated: 'Successfully updated user roles!',
  tokenGenerated: 'Token generated successfully!',
  ssoEnforcementEnabled: 'Successfully enabled organization SSO enforcement!',
  invitationSent: (email: string) => `Invitation sent to ${email}`,
  invitationResent: 'Resent invitation to user',
  invitationRevoked: 'Revoked invitation',
  otherSessionsLoggedOut:
    'Successfully logged out of other sessions! You may wish to log out of this session, as well.',
} as const;
