import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useState } from 'react';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';
import { messageOf } from '../../lib/error-message.ts';
import { Banner } from './banner.tsx';
import { planLimitAction } from './failure-banner.tsx';
import {
  Form as BareForm,
  type FormProps as BareFormProps,
  type SchemaForm as BareSchemaForm,
  type SchemaFormOptions,
  useRulesForm as useBareRulesForm,
} from './rules-form.tsx';

export {
  type FieldBinding,
  resolverOf,
  type SchemaFormOptions,
  SubmitRow,
  type SubmitRowProps,
} from './rules-form.tsx';

// The console's forms (every one but the sign-in forms, which use rules-form.tsx itself, so the login page
// carries none of this): a refusal for a plan's limit names the limit and links to Plans (issue 37).

export interface SchemaForm<TInput extends FieldValues, TOutput> extends BareSchemaForm<TInput, TOutput> {
  /** What the error banner offers for the last failure (a plan's limit: the link to Plans), or null. */
  failureAction: ReactNode;
}

/** A console form whose rules are plain functions (core's rules as functions, rules-form.tsx). */
export function useRulesForm<TInput extends FieldValues, TOutput>(
  resolver: Resolver<TInput, unknown, TOutput>,
  options: SchemaFormOptions<TInput, TOutput>,
): SchemaForm<TInput, TOutput> {
  const [failureAction, setFailureAction] = useState<ReactNode>(null);
  const failureMessage = options.failureMessage ?? messageOf;
  const form = useBareRulesForm(resolver, {
    ...options,
    failureMessage: (error) => {
      setFailureAction(planLimitAction(error));
      return failureMessage(error);
    },
  });
  return {
    ...form,
    failureAction,
    // A failure the page sets itself is its own: no action from an earlier refusal stays beside it.
    setFailure: (message) => {
      setFailureAction(null);
      form.setFailure(message);
    },
  };
}

/**
 * A console form with a core schema as its rules (the same schema the server validates with). Where
 * core states a form's rules as functions rather than a schema (the endpoint forms' per-type field sets),
 * `rules` is a resolver over those functions instead.
 */
export function useSchemaForm<TInput extends FieldValues, TOutput>(
  rules: $ZodType<TOutput, TInput> | Resolver<TInput, unknown, TOutput>,
  options: SchemaFormOptions<TInput, TOutput>,
): SchemaForm<TInput, TOutput> {
  return useRulesForm(typeof rules === 'function' ? rules : zodResolver(rules), options);
}

export interface FormProps extends BareFormProps {
  form: BareFormProps['form'] & { failureAction?: ReactNode };
}

/** rules-form.tsx's `<form>`, whose error banner also offers the failure's action. */
export function Form({ form, children, ...rest }: FormProps) {
  return (
    <BareForm form={{ ...form, failure: null }} {...rest}>
      {/* Where the bare form shows it: failure and success never show together. */}
      {form.failure ? (
        <Banner variant="error" actions={form.failureAction ?? undefined}>
          {form.failure}
        </Banner>
      ) : null}
      {children}
    </BareForm>
  );
}
