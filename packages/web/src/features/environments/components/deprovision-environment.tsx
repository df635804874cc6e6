import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import '../../../components/ui/resource-page.css';
import { messageOf } from '../../../lib/error-message.ts';

export interface DeprovisionEnvironmentProps {
  handle: string;
  /** core scopeDenial(actor, 'destroy', id): the tooltip when the caller may not deprovision. */
  denial: string | null;
  onDeprovision: () => Promise<unknown>;
}

/**
 * spec 2 §2 environment settings: deprovision with the typed handle. The server refuses while the
 * environment still holds resources and names them; that message is shown as it is.
 */
export function DeprovisionEnvironment({ handle, denial, onDeprovision }: DeprovisionEnvironmentProps) {
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const deprovision = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await onDeprovision();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card card-body section-stack" aria-label="Deprovision Environment">
      <h2 className="section-title">Deprovision Environment</h2>
      <p>
        Deprovisioning removes the environment for good. Deprovision its apps, databases, backups and drains
        first. Type <strong>{handle}</strong> to confirm.
      </p>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <TextField
        label="Type the environment handle to confirm"
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
          disabled={typed !== handle}
          loading={busy}
          onClick={() => void deprovision()}
        >
          Deprovision Environment
        </ScopedButton>
      </div>
    </section>
  );
}
