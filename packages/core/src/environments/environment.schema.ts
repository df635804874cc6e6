import { z } from 'zod';
import { requiredMessage } from '../identity/identity-rules.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { plainText } from '../text/plain-text.ts';

// spec 2 §5: "Handle: required; lowercase letters, digits, period, hyphen and underscore; 1 to 64 characters."
export const HANDLE_MAX_LENGTH = 64;
export const handleMessages = {
  pattern: 'Handle may contain only lowercase letters, digits, periods, hyphens and underscores',
  tooLong: `Handle must be at most ${HANDLE_MAX_LENGTH} characters`,
} as const;

// A control or invisible character is refused before trimming, so `web\n` is not taken for `web`.
export const handleSchema = z
  .string({ error: requiredMessage('Handle') })
  .max(MAX_LENGTH.text, { error: handleMessages.tooLong, abort: true })
  .superRefine(plainText('Handle'))
  .trim()
  .min(1, requiredMessage('Handle'))
  .max(HANDLE_MAX_LENGTH, { error: handleMessages.tooLong, abort: true })
  .regex(/^[a-z0-9._-]+$/, handleMessages.pattern);

export const ENVIRONMENT_TYPES = ['development', 'production'] as const;
export const ONBOARDING_STATUSES = [
  'initiated',
  'scanned',
  'db_provisioned',
  'app_provisioned',
  'completed',
  'unknown',
] as const;

export const createEnvironmentSchema = z.object({
  handle: handleSchema,
  organization_id: z
    .string({ error: requiredMessage('Organization') })
    .max(MAX_LENGTH.reference, { error: tooLongMessage('Organization', MAX_LENGTH.reference), abort: true })
    .min(1, requiredMessage('Organization')),
  type: z.enum(ENVIRONMENT_TYPES).default('development'),
  onboarding_status: z.enum(ONBOARDING_STATUSES).default('initiated'),
  stack_id: z
    .union([
      z
        .string()
        .max(MAX_LENGTH.reference, { error: tooLongMessage('Stack', MAX_LENGTH.reference), abort: true }),
      z.number(),
    ])
    .transform(String)
    .optional(),
});
export type CreateEnvironmentInput = z.infer<typeof createEnvironmentSchema>;

export const updateEnvironmentMessages = {
  onboardingStatus: `Onboarding status must be one of: ${ONBOARDING_STATUSES.join(', ')}`,
  empty: 'Nothing to update: send a handle or an onboarding status',
} as const;

/** `PATCH /accounts/:id` (contract §5.6): `{handle}` (rename) or `{onboarding_status}`. */
export const updateEnvironmentSchema = z
  .object({
    handle: handleSchema.optional(),
    onboarding_status: z
      .enum(ONBOARDING_STATUSES, { error: updateEnvironmentMessages.onboardingStatus })
      .optional(),
  })
  .refine((body) => body.handle !== undefined || body.onboarding_status !== undefined, {
    message: updateEnvironmentMessages.empty,
  });
export type UpdateEnvironmentInput = z.infer<typeof updateEnvironmentSchema>;

export const renameEnvironmentMessages = {
  acknowledgment: 'You must acknowledge the impact of renaming this environment',
} as const;

/** spec 2 §2: renaming an environment needs a valid handle and an acknowledgment (the form's rule). */
export const renameEnvironmentSchema = z.object({
  handle: handleSchema,
  acknowledged: z.boolean().refine((value) => value, renameEnvironmentMessages.acknowledgment),
});
export type RenameEnvironmentInput = z.infer<typeof renameEnvironmentSchema>;
