import { z } from 'zod';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

/** Spec 1 §5 and §8: what the 2FA screens and the login say. */
export const twoFactorMessages = {
  /** 2FA setup without a code. */
  tokenRequired: 'must enter token',
  /** Login or elevation answered `otp_token_required`. */
  otpRequired: 'You must enter your 2FA token to continue',
  /** A wrong or already used code. */
  invalidToken: 'The 2FA code is invalid or was already used',
  /** Security keys need 2FA first. */
  securityKeyNeedsOtp: 'In order to add a hardware security key, you must set up 2FA authentication first.',
  resetFailed: 'This 2FA reset link is invalid or has expired',
} as const;

/** RFC 6238 defaults, which authenticator apps assume. */
export const TOTP = { issuer: 'Berth', algorithm: 'SHA1', digits: 6, period: 30, secretBytes: 20 } as const;
/** Recovery codes made for each configuration. */
export const OTP_RECOVERY_CODE_COUNT = 10;

/** The code typed at setup, login or elevation: a TOTP code or a recovery code. */
export const otpTokenSchema = z
  .string({ error: twoFactorMessages.tokenRequired })
  .max(MAX_LENGTH.code, { error: tooLongMessage('The code', MAX_LENGTH.code), abort: true })
  .trim()
  .min(1, twoFactorMessages.tokenRequired);

export const otpSetupSchema = z.object({ otpToken: otpTokenSchema });
export type OtpSetupInput = z.infer<typeof otpSetupSchema>;

/** The secret (base32) of an otpauth:// URI, or null. */
export function otpSecretOf(uri: string): string | null {
  if (uri.length > MAX_LENGTH.reference || !URL.canParse(uri)) return null;
  return new URL(uri).searchParams.get('secret');
}
