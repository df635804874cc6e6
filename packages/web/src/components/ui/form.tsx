import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldValues, Resolver } from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';
import { type SchemaForm, type SchemaFormOptions, useRulesForm } from './rules-form.tsx';

export {
  type FieldBinding,
  Form,
  type FormProps,
  resolverOf,
  type SchemaForm,
  type SchemaFormOptions,
  SubmitRow,
  type SubmitRowProps,
  useRulesForm,
} from './rules-form.tsx';

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
