import { type ReactNode, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import type { FieldBinding } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';

/**
 * The Header Token input: a shared secret (contract §4.3), so it is masked, with a Show/Hide toggle.
 * It never starts with a value: the server only says whether a token is set, and an untouched field
 * sends nothing (a placeholder like "********" would otherwise be saved as the new token).
 */
export function HeaderTokenField({
  hint,
  error,
  ...registration
}: FieldBinding<string> & {
  hint: ReactNode;
}) {
  const [shown, setShown] = useState(false);
  return (
    <FormField label="Header Token" error={error} hint={hint}>
      {(control) => (
        <div className="secret-input">
          <input
            className="input"
            type={shown ? 'text' : 'password'}
            // Not a login password: keep browsers from filling in or offering to save one.
            autoComplete="new-password"
            spellCheck={false}
            {...control}
            {...registration}
          />
          <Button
            variant="secondary"
            size="sm"
            // One name with a pressed state, as a toggle button should have.
            aria-label="Show header token"
            aria-pressed={shown}
            onClick={() => setShown((value) => !value)}
          >
            {shown ? 'Hide' : 'Show'}
          </Button>
        </div>
      )}
    </FormField>
  );
}
