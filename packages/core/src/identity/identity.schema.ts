import { z } from 'zod';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { plainText } from '../text/plain-text.ts';
import {
  emailMessages,
  emailProblem,
  loginCodeProblem,
  loginPasswordProblem,
  nameMessages,
  normalizedEmail,
  passwordMessages,
  passwordProblems,
  requiredMessage,
} from './identity-rules.ts';

/** A zod refinement from a rule of identity-rules.ts (which the login page runs without zod). */
function issueOf(problem: (value: string) => string | null) {
  return (value: string, ctx: z.RefinementCtx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  };
}

export const passwordSchema = z
  .string()
  .max(MAX_LENGTH.password, { error: passwordMessages.tooLong, abort: true })
  .superRefine((value, ctx) => {
    for (const message of passwordProblems(value)) ctx.addIssue({ code: 'custom', message });
  });

export const emailSchema = z
  .string({ error: emailMessages.empty })
  .max(MAX_LENGTH.email, { error: emailMessages.invalid, abort: true })
  .min(1, { error: emailMessages.empty, abort: true })
  .superRefine(issueOf(emailProblem))
  .transform(normalizedEmail);

/**
 * spec 1 §5: "Name: letters, digits and whitespace only". Whitespace is one line of it: a line break, a
 * control or an invisible character is refused before the name is trimmed (issue 15).
 */
export function personNameSchema(label = 'Name') {
  return z
    .string({ error: requiredMessage(label) })
    .max(MAX_LENGTH.text, { error: `${label} must be at most 120 characters`, abort: true })
    .superRefine(plainText(label))
    .trim()
    .min(1, { error: requiredMessage(label), abort: true })
    .max(120, { error: `${label} must be at most 120 characters`, abort: true })
    .refine((value) => /^[\p{L}\p{N}\s]+$/u.test(value), nameMessages.symbols);
}

/**
 * A required name (organization, role, company): letters of every script, but no control, line-break,
 * invisible or text-direction character, anywhere (checked before trimming; issue 15).
 */
export function requiredText(label: string, max = 200) {
  return z
    .string({ error: requiredMessage(label) })
    .max(Math.max(max, MAX_LENGTH.text), { error: `${label} must be at most ${max} characters`, abort: true })
    .superRefine(plainText(label))
    .trim()
    .min(1, requiredMessage(label))
    .max(max, { error: `${label} must be at most ${max} characters`, abort: true });
}

export const loginSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: requiredMessage('Password') })
    .max(MAX_LENGTH.password, { error: tooLongMessage('Password', MAX_LENGTH.password), abort: true })
    .min(1, { error: requiredMessage('Password'), abort: true })
    .superRefine(issueOf(loginPasswordProblem)),
  otpToken: z
    .string()
    .max(MAX_LENGTH.code, { error: tooLongMessage('The code', MAX_LENGTH.code), abort: true })
    .superRefine(issueOf(loginCodeProblem))
    .optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The sign-up form (spec 1 §2: name, company, email, password). Company may be skipped for invitations. */
export function signupSchema(options: { fromInvitation: boolean } = { fromInvitation: false }) {
  return z.object({
    name: personNameSchema('Name'),
    company: options.fromInvitation
      ? z
          .string()
          .max(MAX_LENGTH.text, { error: tooLongMessage('Company', MAX_LENGTH.text), abort: true })
          .trim()
          .optional()
      : requiredText('Company'),
    email: emailSchema,
    password: passwordSchema,
  });
}
export type SignupInput = z.infer<ReturnType<typeof signupSchema>>;

export const organizationNameSchema = requiredText('Name', 120);

export const createOrganizationSchema = z.object({ name: organizationNameSchema });
export type CreateOrganizationInput = z.infer<typeof createOrganizationSchema>;

/** First message of a failed parse, for places that show one line. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Invalid input';
}
