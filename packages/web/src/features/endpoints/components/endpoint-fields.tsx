import type { ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import type { FieldBinding } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

// The fields the create and settings forms share, so the two keep the same labels and hints.

/** A multi-line endpoint field (allowlist, certificate, key): no spell checking on addresses or PEM. */
export function EndpointTextArea({
  label,
  hint,
  placeholder,
  error,
  ...registration
}: FieldBinding<string> & { label: string; hint?: ReactNode; placeholder?: string }) {
  return (
    <FormField label={label} error={error} hint={hint}>
      {(control) => (
        <textarea
          className="input endpoint-form-textarea"
          rows={4}
          spellCheck={false}
          placeholder={placeholder}
          {...control}
          {...registration}
        />
      )}
    </FormField>
  );
}

export function IpAllowlistField(props: FieldBinding<string> & { placeholder?: string }) {
  return (
    <EndpointTextArea
      label="IP Allowlist"
      hint="IPv4 addresses or CIDRs, separated by spaces or new lines (at most 50). Empty allows all traffic."
      {...props}
    />
  );
}

export function ContainerPortField(binding: FieldBinding<string>) {
  return (
    <TextField
      label="Custom Container Port"
      inputMode="numeric"
      autoComplete="off"
      hint="Leave empty to use the port the image exposes first."
      {...binding}
    />
  );
}

export interface ChoiceOption {
  value: string;
  label: string;
  description?: string;
}

/** A group of radio buttons with a legend, each option with an optional description. */
export function ChoiceGroup({
  legend,
  options,
  registration,
}: {
  legend: string;
  options: readonly ChoiceOption[];
  registration: UseFormRegisterReturn;
}) {
  return (
    <fieldset className="choice-group">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="choice-option">
          <input type="radio" value={option.value} {...registration} />
          <span>
            {option.label}
            {option.description ? <small>{option.description}</small> : null}
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** spec 2 §2 placement: external (the internet) or internal (the stack's network). */
export function PlacementField({ registration }: { registration: UseFormRegisterReturn }) {
  return (
    <ChoiceGroup
      legend="Placement"
      registration={registration}
      options={[
        { value: 'external', label: 'External', description: 'Reachable from the internet.' },
        { value: 'internal', label: 'Internal', description: "Reachable only inside the stack's network." },
      ]}
    />
  );
}
