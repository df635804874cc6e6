import { updateAppSchema } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import './apps.css';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';

export interface AppSettingsProps {
  handle: string;
  denials: { rename: string | null; deprovision: string | null };
  onRename: (handle: string) => Promise<unknown>;
  onDeprovision: () => Promise<unknown>;
}

/**
 * spec 2 §2 app settings: rename and deprovision (the handle typed exactly, spec 2 §5). Restart, which the
 * spec lists here too, is in the app's header, on every tab (issue 41).
 */
export function AppSettings({ handle, denials, onRename, onDeprovision }: AppSettingsProps) {
  const renameForm = useSchemaForm(updateAppSchema, {
    defaultValues: { handle },
    blocked: (values) => denials.rename !== null || values.handle.trim() === handle,
    onSubmit: (values) => onRename(values.handle),
  });

  return (
    <div className="section-stack">
      <Form form={renameForm} className="card card-body form" aria-label="Rename App" title="Rename App">
        <TextField label="New Handle" autoComplete="off" spellCheck={false} {...renameForm.field('handle')} />
        <SubmitRow denial={denials.rename} disabled={renameForm.watch('handle').trim() === handle}>
          Save Changes
        </SubmitRow>
      </Form>

      <TypedConfirmation
        as="form"
        title="Deprovision App"
        notices={
          <Banner variant="warning">
            This removes the app, its services, containers and configuration. It cannot be undone.
          </Banner>
        }
        expected={handle}
        fieldLabel={`Type ${handle} to confirm`}
        denial={denials.deprovision}
        lockFieldWhenDenied={false}
        onConfirm={onDeprovision}
      />
    </div>
  );
}
