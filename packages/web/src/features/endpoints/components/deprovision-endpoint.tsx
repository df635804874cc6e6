import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { messageOf } from '../../../lib/error-message.ts';

export interface DeprovisionEndpointProps {
  /** The hostname the detail shows; spec 2 §5: it must be typed exactly. */
  hostname: string;
  /** core scopeDenial(actor, 'destroy', environmentId). */
  denial: string | null;
  onDeprovision: () => Promise<unknown>;
}

/** spec 2 §2 Deprovision Endpoint: the hostname typed exactly, then a deprovision operation. */
export function DeprovisionEndpoint({ hostname, denial, onDeprovision }: DeprovisionEndpointProps) {
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmed = hostname !== '' && typed === hostname;

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
    <form
      className="card card-body form"
      aria-label="Deprovision Endpoint"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (confirmed) void deprovision();
      }}
    >
      <h2 className="section-title">Deprovision Endpoint</h2>
      <p>
        Deprovisioning removes the endpoint and its load balancer; traffic to it stops. Type{' '}
        <strong>{hostname}</strong> to confirm.
      </p>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <TextField
        label="Type the endpoint hostname to confirm"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        disabled={denial !== null}
        onChange={(event) => setTyped(event.target.value)}
      />
      <div>
        <ScopedButton type="submit" variant="danger" denial={denial} disabled={!confirmed} loading={busy}>
          Deprovision Endpoint
        </ScopedButton>
      </div>
    </form>
  );
}
