import { zodResolver } from '@hookform/resolvers/zod';
import {
  type BaseSyntheticEvent,
  createContext,
  type FormHTMLAttributes,
  type ReactNode,
  useContext,
  useState,
} from 'react';
import {
  type DefaultValues,
  type FieldError,
  type FieldValues,
  get,
  type Path,
  type Resolver,
  type UseFormRegisterReturn,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { $ZodType } from 'zod/v4/core';
import { messageOf } from '../../lib/error-message.ts';
import { Banner } from './banner.tsx';
import { Button, type ButtonSize, type ButtonVariant } from './button.tsx';
import { ScopedButton } from './permission-button.tsx';

export interface SchemaFormOptions<TInput extends FieldValues, TOutput> {
  defaultValues: DefaultValues<TInput>;
  /** Sends the parsed values; a rejection's message becomes the form's error banner. */
  onSubmit: (values: TOutput) => unknown;
  /** The banner text for a rejection (default: the server's message, `messageOf`). */
  failureMessage?: (error: unknown) => string;
  /** A success banner once `onSubmit` resolved (forms that stay on screen after saving). */
  successMessage?: (values: TOutput) => string;
  /**
   * Submitting does nothing (denied, or nothing changed: a function reads the current values). A denied
   * button is only aria-disabled, and Enter in a lone text field submits the form without any button, so
   * the form itself must refuse.
   */
  blocked?: boolean | ((values: TInput) => boolean);
}

export interface SchemaForm<TInput extends FieldValues, TOutput>
  extends UseFormReturn<TInput, unknown, TOutput> {
  /** The server's message from the last failed submit, or null. */
  failure: string | null;
  setFailure: (message: string | null) => void;
  success: string | null;
  /** The `<form>`'s submit handler: validate with the schema, send, show the outcome. */
  submit: (event?: BaseSyntheticEvent) => Promise<void>;
  /** A field's registration and its schema message, spread onto TextField or SelectField. */
  field: <TName extends Path<TInput>>(name: TName) => FieldBinding<TName>;
}

export interface FieldBinding<TName extends string> extends UseFormRegisterReturn<TName> {
  error: string | undefined;
}

/**
 * The one way a console form works: react-hook-form with a core schema as its resolver (the same schema
 * the server validates with), the server's message kept for an error banner, and a pending state.
 * Where core states a form's rules as functions rather than a schema (the endpoint forms' per-type
 * field sets), `rules` is a resolver over those functions instead.
 */
export function useSchemaForm<TInput extends FieldValues, TOutput>(
  rules: $ZodType<TOutput, TInput> | Resolver<TInput, unknown, TOutput>,
  {
    defaultValues,
    onSubmit,
    failureMessage = messageOf,
    successMessage,
    blocked = false,
  }: SchemaFormOptions<TInput, TOutput>,
): SchemaForm<TInput, TOutput> {
  const form = useForm<TInput, unknown, TOutput>({
    resolver: typeof rules === 'function' ? rules : zodResolver(rules),
    defaultValues,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const send = form.handleSubmit(async (values) => {
    setFailure(null);
    setSuccess(null);
    try {
      await onSubmit(values);
      if (successMessage) setSuccess(successMessage(values));
    } catch (error) {
      setFailure(failureMessage(error));
    }
  });
  const submit = async (event?: BaseSyntheticEvent) => {
    if (typeof blocked === 'function' ? blocked(form.getValues()) : blocked) {
      event?.preventDefault();
      return;
    }
    await send(event);
  };
  // Every field passes its name twice (register, errors): one call keeps the two from drifting apart.
  const field = <TName extends Path<TInput>>(name: TName): FieldBinding<TName> => ({
    ...form.register(name),
    error: (get(form.formState.errors, name) as FieldError | undefined)?.message,
  });
  return { ...form, failure, setFailure, success, submit, field };
}

interface FormStatus {
  pending: boolean;
}

const FormStatusContext = createContext<FormStatus>({ pending: false });

export interface FormProps extends Omit<FormHTMLAttributes<HTMLFormElement>, 'onSubmit' | 'noValidate'> {
  form: Pick<SchemaForm<FieldValues, unknown>, 'submit' | 'failure' | 'success'> & {
    formState: { isSubmitting: boolean };
  };
  /** A section heading, above the banners (settings cards). */
  title?: string;
  children: ReactNode;
}

/**
 * A `<form>` bound to `useSchemaForm`: the schema's messages show beside the fields (native validation
 * off), the server's message in an error banner at the top, and the submit row knows it is pending.
 */
export function Form({ form, title, className = 'form', children, ...rest }: FormProps) {
  return (
    <form className={className} noValidate onSubmit={form.submit} {...rest}>
      {title ? <h2 className="section-title">{title}</h2> : null}
      {form.failure ? <Banner variant="error">{form.failure}</Banner> : null}
      {form.success ? <Banner variant="success">{form.success}</Banner> : null}
      <FormStatusContext value={{ pending: form.formState.isSubmitting }}>{children}</FormStatusContext>
    </form>
  );
}

export interface SubmitRowProps {
  /** The submit button's label. */
  children: ReactNode;
  /** Why the caller may not submit (the button stays visible with it as its tooltip); omit when ungated. */
  denial?: string | null;
  /** Nothing to submit yet (unchanged, incomplete). */
  disabled?: boolean;
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  /** Shows a Cancel button after the submit button. */
  onCancel?: () => void;
  cancelLabel?: string;
}

/** The submit button (spinner and no repeat while the form is pending) and an optional Cancel. */
export function SubmitRow({
  children,
  denial = null,
  disabled,
  variant,
  size,
  block,
  onCancel,
  cancelLabel = 'Cancel',
}: SubmitRowProps) {
  const { pending } = useContext(FormStatusContext);
  return (
    <div className="submit-row">
      <ScopedButton
        type="submit"
        denial={denial}
        disabled={disabled}
        loading={pending}
        variant={variant}
        size={size}
        block={block}
      >
        {children}
      </ScopedButton>
      {onCancel ? (
        <Button variant="ghost" size={size} disabled={pending} onClick={onCancel}>
          {cancelLabel}
        </Button>
      ) : null}
    </div>
  );
}
