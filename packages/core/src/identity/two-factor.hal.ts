import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** Contract §4.1 otp_configuration: `self` is sent back as `current_otp_configuration`. */
export const otpConfigurationResource = z
  .strictObject({
    id: halId,
    _type: z.literal('otp_configuration'),
    otp_uri: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'user', 'otp_recovery_codes']),
  })
  .meta({ id: 'OtpConfiguration' });
export type OtpConfigurationResource = z.infer<typeof otpConfigurationResource>;

/** Contract §4.1: `value` is shown only while `used` is false (a used code's value is empty). */
export const otpRecoveryCodeResource = z
  .strictObject({
    id: halId,
    _type: z.literal('otp_recovery_code'),
    value: z.string(),
    used: z.boolean(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'otp_configuration']),
  })
  .meta({ id: 'OtpRecoveryCode' });
export type OtpRecoveryCodeResource = z.infer<typeof otpRecoveryCodeResource>;

export const otpRecoveryCodeCollection = halCollection('otp_recovery_codes', otpRecoveryCodeResource).meta({
  id: 'OtpRecoveryCodeCollection',
});
export type OtpRecoveryCodeCollection = z.infer<typeof otpRecoveryCodeCollection>;
