import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import '../../../components/ui/resource-page.css';
import { messageOf } from '../../../lib/error-message.ts';

export interface DeleteRoleProps {
  name: string;
  denial: string | null;
  onDelete: () => Promise<unknown>;
}

/** spec 1 §5 Role delete: the typed name must equal the role name. */
export function DeleteRole({ name, denial, onDelete }: DeleteRoleProps) {
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await onDelete();
    } catch (error) {
      setFailure(messageOf(error));
      setBusy(false);
    }
  };

  return (
    <section className="card card-body section-stack" aria-label="Delete Role">
      <h2 className="section-title">Delete Role</h2>
      <p>
        Deleting the role removes its members' access through it and its environment permissions. Type{' '}
        <strong>{name}</strong> to confirm.
      </p>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <TextField
        label="Type the role name to confirm"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        disabled={denial !== null}
        onChange={(event) => setTyped(event.target.value)}
      />
      <div>
        <ScopedButton
          variant="danger"
          denial={denial}
          disabled={typed !== name}
          loading={busy}
          onClick={() => void remove()}
        >
          Delete Role
        </ScopedButton>
      </div>
    </section>
  );
}
