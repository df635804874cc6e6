import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { FormField } from './form-field.tsx';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string;
  hint?: ReactNode;
  describedBy?: string;
  invalid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({
  label,
  error,
  hint,
  describedBy,
  invalid,
  className,
  ref,
  ...input
}: TextFieldProps) {
  return (
    <FormField label={label} error={error} hint={hint} describedBy={describedBy} invalid={invalid}>
      {(control) => (
        <input ref={ref} className={['input', className].filter(Boolean).join(' ')} {...control} {...input} />
      )}
    </FormField>
  );
}
