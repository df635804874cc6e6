import { z } from 'zod';
import { AWS_REGIONS } from '../constants/constants.ts';
import { requiredMessage } from '../identity/identity-rules.ts';
import { type Actor, isAccountOwner } from '../permissions/permissions.ts';
import { MAX_LENGTH } from '../text/limits.ts';
import { plainText } from '../text/plain-text.ts';

// spec 2 §5: "Stack name: required; lowercase alphanumerics and hyphens; at most 26."
export const STACK_NAME_MAX_LENGTH = 26;
export const stackNameMessages = {
  pattern: 'Stack name may contain only lowercase letters, digits and hyphens',
  tooLong: `Stack name must be at most ${STACK_NAME_MAX_LENGTH} characters`,
} as const;

export const stackNameSchema = z
  .string({ error: requiredMessage('Stack name') })
  .max(MAX_LENGTH.text, { error: stackNameMessages.tooLong, abort: true })
  .superRefine(plainText('Stack name'))
  .trim()
  .min(1, requiredMessage('Stack name'))
  .max(STACK_NAME_MAX_LENGTH, { error: stackNameMessages.tooLong, abort: true })
  .regex(/^[a-z0-9-]+$/, stackNameMessages.pattern);

/** spec 2 §2: the region select starts on 'none', which is not a choice. */
export const NO_AWS_REGION = 'none';

export const dedicatedStackRequestMessages = {
  region: 'must select an AWS region',
  terms: 'You must accept the terms to request a dedicated stack',
} as const;

/** spec 2 §2: a dedicated stack request needs a valid name, an AWS region other than 'none', and accepted terms. */
// Inputs are a plain string and boolean (what a select and a checkbox hold); the refinements do the rest.
export const dedicatedStackRequestSchema = z.object({
  name: stackNameSchema,
  region: z
    .string({ error: dedicatedStackRequestMessages.region })
    .max(MAX_LENGTH.keyword, { error: dedicatedStackRequestMessages.region, abort: true })
    .refine(
      (region) => (AWS_REGIONS as readonly string[]).includes(region),
      dedicatedStackRequestMessages.region,
    ),
  acceptTerms: z
    .boolean({ error: dedicatedStackRequestMessages.terms })
    .refine((accepted) => accepted, dedicatedStackRequestMessages.terms),
});
export type DedicatedStackRequest = z.infer<typeof dedicatedStackRequestSchema>;

/** spec 2 §2: dedicated stacks are offered only to these plans. */
export const DEDICATED_STACK_PLANS = ['growth', 'scale', 'production', 'enterprise'] as const;

export function planOffersDedicatedStacks(planName: string | null | undefined): boolean {
  return (DEDICATED_STACK_PLANS as readonly string[]).includes((planName ?? '').toLowerCase());
}

export type StackKind = 'shared' | 'dedicated' | 'self-hosted';

/** contract §4.3: self_hosted wins; no owning organization means shared; otherwise dedicated. */
export function stackKind(stack: { selfHosted: boolean; organizationId: string | null }): StackKind {
  if (stack.selfHosted) return 'self-hosted';
  return stack.organizationId ? 'dedicated' : 'shared';
}

export const stackDeprovisionMessages = {
  ownerOnly: 'You must be an Account Owner to deprovision stacks',
  shared: 'Shared stacks cannot be deprovisioned',
  environmentsRemain: 'All environments on this stack must be deprovisioned before the stack can be',
  nameMismatch: 'Type the stack name to confirm',
} as const;

export interface StackDeprovisionInput {
  kind: StackKind;
  stackName: string;
  typedName: string;
  environmentCount: number;
}

/**
 * spec 2 §2: a stack deprovision request needs the Account Owner, the typed name equal to the stack
 * name and every environment gone; shared stacks cannot be deprovisioned. The first reason it is
 * refused, or null when the request may be made.
 */
export function stackDeprovisionRefusal(
  actor: Pick<Actor, 'roleTypes'>,
  input: StackDeprovisionInput,
): string | null {
  if (input.kind === 'shared') return stackDeprovisionMessages.shared;
  if (!isAccountOwner(actor)) return stackDeprovisionMessages.ownerOnly;
  if (input.environmentCount > 0) return stackDeprovisionMessages.environmentsRemain;
  if (input.typedName !== input.stackName) return stackDeprovisionMessages.nameMismatch;
  return null;
}
