import { handleSchema } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import './apps.css';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
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
  const [name, setName] = useState(handle);
  const [renameError, setRenameError] = useState<string | null>(null);
  const [renameFailure, setRenameFailure] = useState<string | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [restartFailure, setRestartFailure] = useState<string | null>(null);
  const [restarting, setRestarting] = useState(false);

  const rename = async () => {
    setRenameFailure(null);
    const parsed = handleSchema.safeParse(name);
    if (!parsed.success) {
      setRenameError(parsed.error.issues[0]?.message ?? 'Invalid handle');
      return;
    }
    setRenameError(null);
    setRenaming(true);
    try {
      await onRename(parsed.data);
    } catch (error) {
      setRenameFailure(messageOf(error));
    } finally {
      setRenaming(false);
    }
  };

  return (
    <div className="section-stack">
      <form
        className="card card-body form"
        aria-label="Rename App"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void rename();
        }}
      >
        <h2 className="section-title">Rename App</h2>
        {renameFailure ? <Banner variant="error">{renameFailure}</Banner> : null}
        <TextField
          label="New Handle"
          autoComplete="off"
          spellCheck={false}
          value={name}
          error={renameError ?? undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <div>
          <ScopedButton
            type="submit"
            denial={denials.rename}
            loading={renaming}
            disabled={name.trim() === handle}
          >
            Save Changes
          </ScopedButton>
        </div>
      </form>

      <section className="card card-body form" aria-label="Restart App">
        <h2 className="section-title">Restart App</h2>
        <p className="field-hint">Restarts every container of the app's services.</p>
        {restartFailure ? <Banner variant="error">{restartFailure}</Banner> : null}
        <div>
          <ScopedButton
            variant="secondary"
            denial={denials.restart}
            loading={restarting}
            onClick={async () => {
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
            Restart App
          </ScopedButton>
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
