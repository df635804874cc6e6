import { requiredMessage } from '@berth/core';
import { type FormEvent, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { messageOf } from '../../../lib/error-message.ts';

export interface CreateRoleFormProps {
  /** Why the caller may not create roles, or null. */
  denial: string | null;
  onCreate: (name: string) => Promise<unknown>;
}

/** spec 1 §2 New Role: a name; the role is created as a platform_user role (spec 1 §9). */
export function CreateRoleForm({ denial, onCreate }: CreateRoleFormProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (denial) return;
    const next = name.trim();
    if (!next) {
      setError(requiredMessage('Name'));
      return;
    }
    setError(null);
    setFailure(null);
    setBusy(true);
    try {
      await onCreate(next);
    } catch (caught) {
      setFailure(messageOf(caught));
      setBusy(false);
    }
  };

  return (
    <form className="card card-body form" aria-label="New Role" noValidate onSubmit={submit}>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <TextField
        label="Name"
        autoComplete="off"
        value={name}
        error={error ?? undefined}
        disabled={denial !== null}
        onChange={(event) => setName(event.target.value)}
      />
      <div>
        <ScopedButton type="submit" denial={denial} loading={busy}>
          Create Role
        </ScopedButton>
      </div>
    </form>
  );
}
