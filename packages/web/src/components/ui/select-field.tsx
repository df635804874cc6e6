import type { ReactNode, Ref, SelectHTMLAttributes } from 'react';
import { FormField } from './form-field.tsx';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'children'> {
  label: string;
  error?: string;
  hint?: ReactNode;
  options: readonly SelectOption[];
  /** The first choice standing for "none chosen" ("Select a role"). */
  placeholder?: string;
  /** That choice's value: '' unless the schema names its own "none". */
  placeholderValue?: string;
  ref?: Ref<HTMLSelectElement>;
}

/** A labelled select over a flat list of options, laid out and wired like TextField. */
export function SelectField({
  label,
  error,
  hint,
  options,
  placeholder,
  placeholderValue = '',
  className,
  ref,
  ...select
}: SelectFieldProps) {
  return (
    <FormField label={label} error={error} hint={hint}>
      {(control) => (
        <select
          ref={ref}
          className={['select', className].filter(Boolean).join(' ')}
          {...control}
          {...select}
        >
          {placeholder !== undefined ? <option value={placeholderValue}>{placeholder}</option> : null}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
