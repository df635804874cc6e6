import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import { FieldError } from './form-field.tsx';

export interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  /** The statement the box agrees to, as its label. */
  label: ReactNode;
  error?: string;
  ref?: Ref<HTMLInputElement>;
}

/** A checkbox that must be ticked (terms, an acknowledgement), with the schema's message under it. */
export function CheckboxField({ label, error, ref, ...input }: CheckboxFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <div className="checkbox-field">
        <input
          ref={ref}
          id={id}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          {...input}
        />
        <label htmlFor={id}>{label}</label>
      </div>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
