import { TOTP as TOTP_RULES } from '@berth/core';
import { Secret, TOTP } from 'otpauth';

/** The authenticator app of a test: the TOTP of an `otpauth://` URI the server handed out. */
export const totpFor = (uri: string) =>
  new TOTP({
    secret: Secret.fromBase32(new URL(uri).searchParams.get('secret') ?? ''),
    algorithm: TOTP_RULES.algorithm,
    digits: TOTP_RULES.digits,
    period: TOTP_RULES.period,
  });

/** The code `offsetSteps` steps from now (-1: the step before, which the server still accepts). */
export const codeAt = (uri: string, offsetSteps = 0) =>
  totpFor(uri).generate({ timestamp: Date.now() + offsetSteps * TOTP_RULES.period * 1000 });

/**
 * Waits out the last seconds of a step, so a code made now is checked by the server in the same step:
 * a code of the step before, made just before a step ends, would be two steps old when checked.
 */
export async function clearOfStepEnd(marginMs = 3000): Promise<void> {
  const stepMs = TOTP_RULES.period * 1000;
  const left = stepMs - (Date.now() % stepMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
