import { z } from 'zod';
import { ENV_KEY_PATTERN, envMessages } from '../configuration/env.ts';
import { halLinks } from '../hal/hal.ts';
import { boundedString } from '../text/bounded-string.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

// issue 41 "Secrets stay secret": the names of an app's variables whose values the console never shows
// again once saved. A record of its own beside the configuration, so the configuration's shape (contract
// §4.3) stays as existing clients know it; the values themselves still answer to read/sensitive holders.

/** How many variables of one app may be marked sensitive, and how many one request may mark. */
export const MAX_SENSITIVE_ENV_KEYS = 1000;

export const sensitiveEnvKeysMessages = {
  none: 'Name at least one variable to mark sensitive',
  tooMany: `An app may mark at most ${MAX_SENSITIVE_ENV_KEYS} variables sensitive`,
} as const;

/** A variable name: bounded first, then held to the spec's key rule (spec 2 §5) with its message. */
const envKey = boundedString(MAX_LENGTH.envKey, {
  tooLong: tooLongMessage('A variable name', MAX_LENGTH.envKey),
}).superRefine((key, ctx) => {
  if (!ENV_KEY_PATTERN.test(key)) ctx.addIssue({ code: 'custom', message: envMessages.badKey(key) });
});

/**
 * Marks variables sensitive. There is no way back: a sensitive variable stays sensitive until a configure
 * operation removes it (as Vercel's sensitive variables), so its value never becomes visible again.
 */
export const markSensitiveEnvKeysInput = z.object({
  keys: z
    .array(envKey)
    .min(1, { error: sensitiveEnvKeysMessages.none })
    .max(MAX_SENSITIVE_ENV_KEYS, { error: sensitiveEnvKeysMessages.tooMany }),
});
export type MarkSensitiveEnvKeysInput = z.infer<typeof markSensitiveEnvKeysInput>;

/** An app's sensitive variable names, in name order. */
export const sensitiveEnvKeysResource = z
  .strictObject({
    _type: z.literal('sensitive_env_keys'),
    keys: z.array(z.string().max(MAX_LENGTH.envKey, { abort: true })),
    _links: halLinks(['self', 'app']),
  })
  .meta({ id: 'SensitiveEnvKeys' });
export type SensitiveEnvKeysResource = z.infer<typeof sensitiveEnvKeysResource>;
