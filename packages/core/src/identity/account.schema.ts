import { z } from 'zod';
import { MAX_LENGTH } from '../text/limits.ts';
import { emailSchema, passwordSchema, personNameSchema } from './identity.schema.ts';
import { passwordMessages, requiredMessage } from './identity-rules.ts';

/** spec 1 §8: the account screens' texts (profile, security settings, forgotten password). */
export const accountMessages = {
  nameUpdated: 'Successfully updated your name!',
  /** Appended to a success after a change that ends the other sessions. */
  otherSessionsLoggedOut: ' Other sessions have been logged out.',
  passwordChanged: 'Successfully updated your password!',
  emailChangeRequested: (email: string) =>
    `Success! We sent a verification link to ${email}. Your email address changes once you open it.`,
  emailChangeCancelled: 'Cancelled the pending email change.',
  /** spec 1 §8: the answer to every reset request that did not fail otherwise (invalid_email included). */
  resetRequested:
    'If an account exists for that email address, we will email you instructions for resetting your password.',
  resetRequestFailed: (message: string) =>
    `Error! Unable to submit request to reset your password: ${message}`,
  passwordReset:
    'Your password was reset. Every session of your account was logged out: log in with the new password.',
} as const;

/** The new password and its confirmation, which must match (spec 1 §5 "Change password"). */
function newPasswordFields() {
  return z
    .object({
      password: passwordSchema,
      passwordConfirmation: z
        .string()
        .max(MAX_LENGTH.password, { error: passwordMessages.tooLong, abort: true })
        .min(1, requiredMessage('Password confirmation')),
    })
    .refine((values) => values.password === values.passwordConfirmation, {
      message: passwordMessages.mismatch,
      path: ['passwordConfirmation'],
    });
}

/** Security settings, Change Password. */
export const changePasswordSchema = newPasswordFields();
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** /password/update/{challengeId}/{verificationCode}: the new password of a forgotten one. */
export const resetPasswordSchema = newPasswordFields();
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** Security settings, Change Email: the new address. */
export const changeEmailSchema = z.object({ email: emailSchema });
export type ChangeEmailInput = z.infer<typeof changeEmailSchema>;

/** /forgot-password: the account's address. */
export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** /settings/profile: the user's name. */
export const profileSchema = z.object({ name: personNameSchema('Name') });
export type ProfileInput = z.infer<typeof profileSchema>;
