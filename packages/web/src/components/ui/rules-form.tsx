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
  type ResolverResult,
  type UseFormRegisterReturn,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
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
 * The one way a console form works: react-hook-form with the form's rules as its resolver, the server's
 * message kept for an error banner, and a pending state. This module carries no schema library, so a
 * page whose rules are plain functions (the login form) loads none; `useSchemaForm` (form.tsx) runs a
 * core zod schema through it.
 */
export function useRulesForm<TInput extends FieldValues, TOutput>(
  resolver: Resolver<TInput, unknown, TOutput>,
  {
    defaultValues,
    onSubmit,
    failureMessage = messageOf,
    successMessage,
    blocked = false,
  }: SchemaFormOptions<TInput, TOutput>,
): SchemaForm<TInput, TOutput> {
  const form = useForm<TInput, unknown, TOutput>({ resolver, defaultValues });
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

/**
 * A resolver from a function that names each field's problem (core's plain rules): when there is none,
 * the values pass as `normalize` makes them (as a schema's transforms would).
 */
export function resolverOf<TValues extends FieldValues>(
  problemsOf: (values: TValues) => Partial<Record<Path<TValues>, string>>,
  normalize: (values: TValues) => TValues = (values) => values,
): Resolver<TValues, unknown, TValues> {
  return async (values): Promise<ResolverResult<TValues, TValues>> => {
    const problems = Object.entries(problemsOf(values)).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    );
    if (problems.length === 0) return { values: normalize(values), errors: {} };
    const errors = Object.fromEntries(
      problems.map(([name, message]) => [name, { type: 'validate', message }]),
    );
    return { values: {}, errors } as ResolverResult<TValues, TValues>;
  };
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
