import { type ReactNode, useId } from 'react';

export interface ControlProps {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
}

export interface FormFieldProps {
  label: string;
  error?: string;
  hint?: ReactNode;
  /** Extra element ids that describe the control (a live rules list, for instance). */
  describedBy?: string;
  /** Marks the control invalid without a message of its own (the message is shown elsewhere). */
  invalid?: boolean;
  children: (control: ControlProps) => ReactNode;
}

/** Label, control, hint and error, wired for assistive technology: the one way forms are laid out. */
export function FormField({ label, error, hint, describedBy, invalid, children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = [hint ? hintId : null, error ? errorId : null, describedBy ?? null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children({
        id,
        'aria-invalid': error || invalid ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <FieldError id={errorId} error={error} />
    </div>
  );
}

/** The schema's message under a control, with the id its aria-describedby names; nothing without one. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p className="field-error" id={id}>
      {error}
    </p>
  ) : null;
}
