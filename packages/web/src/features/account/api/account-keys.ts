/** Query keys of the account screens. */
export const accountKeys = {
  all: ['account'] as const,
  /** GET /users/:id/email_verification_challenges: pending changes of address. */
  emailChanges: (userId: string) => [...accountKeys.all, 'email-changes', userId] as const,
};
