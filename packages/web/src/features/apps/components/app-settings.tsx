import { updateAppSchema } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import './apps.css';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';
import { messageOf } from '../../../lib/error-message.ts';

export interface AppSettingsProps {
  handle: string;
  denials: { rename: string | null; restart: string | null; deprovision: string | null };
  onRename: (handle: string) => Promise<unknown>;
  onRestart: () => Promise<unknown>;
  onDeprovision: () => Promise<unknown>;
}

/** spec 2 §2 app settings: rename, restart and deprovision (the handle typed exactly, spec 2 §5). */
export function AppSettings({ handle, denials, onRename, onRestart, onDeprovision }: AppSettingsProps) {
  const renameForm = useSchemaForm(updateAppSchema, {
    defaultValues: { handle },
    blocked: (values) => denials.rename !== null || values.handle.trim() === handle,
    onSubmit: (values) => onRename(values.handle),
  });
  const [restartFailure, setRestartFailure] = useState<string | null>(null);
  const [restarting, setRestarting] = useState(false);

  return (
    <div className="section-stack">
      <Form form={renameForm} className="card card-body form" aria-label="Rename App" title="Rename App">
        <TextField label="New Handle" autoComplete="off" spellCheck={false} {...renameForm.field('handle')} />
        <SubmitRow denial={denials.rename} disabled={renameForm.watch('handle').trim() === handle}>
          Save Changes
        </SubmitRow>
      </Form>

      <section className="card card-body form" aria-label="Restart App">
        <h2 className="section-title">Restart App</h2>
        <p className="field-hint">Restarts every container of the app's services.</p>
        {restartFailure ? <Banner variant="error">{restartFailure}</Banner> : null}
        <div>
          <ConfirmButton
            label="Restart App"
            confirmLabel="Confirm restart of the app"
            warning="Every container of its services stops and starts again; requests may fail meanwhile."
            denial={denials.restart}
            size="md"
            onConfirm={async () => {
              setRestartFailure(null);
              setRestarting(true);
              try {
                await onRestart();
              } catch (error) {
                setRestartFailure(messageOf(error));
              } finally {
                setRestarting(false);
              }
            }}
          >
            {restarting ? 'Restarting…' : 'Restart App'}
          </ConfirmButton>
        </div>
      </section>

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
