import type { ReactNode } from 'react';
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
