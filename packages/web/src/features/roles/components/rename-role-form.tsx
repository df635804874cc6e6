import { requiredMessage } from '@berth/core';
import { type FormEvent, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import '../../../components/ui/resource-page.css';
import { messageOf } from '../../../lib/error-message.ts';

export interface RenameRoleFormProps {
  currentName: string;
  /** Why the caller may not rename (not an owner or role admin, a provisioned role), or null. */
  denial: string | null;
  onRename: (name: string) => Promise<unknown>;
}

/** spec 1 §5 Role rename: disabled if unchanged or if the user cannot manage. */
export function RenameRoleForm({ currentName, denial, onRename }: RenameRoleFormProps) {
  const [name, setName] = useState(currentName);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const unchanged = name.trim() === currentName;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (denial || unchanged) return;
    const next = name.trim();
    if (!next) {
      setError(requiredMessage('Name'));
      return;
    }
    setError(null);
    setFailure(null);
    setBusy(true);
    try {
      await onRename(next);
    } catch (caught) {
      setFailure(messageOf(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card card-body form section-stack" aria-label="Rename Role" noValidate onSubmit={submit}>
      <h2 className="section-title">Rename Role</h2>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <TextField
        label="Role name"
        autoComplete="off"
        value={name}
        error={error ?? undefined}
        disabled={denial !== null}
        onChange={(event) => setName(event.target.value)}
      />
      <div>
        <ScopedButton type="submit" denial={denial} disabled={unchanged} loading={busy}>
          Save
        </ScopedButton>
      </div>
    </form>
  );
}
