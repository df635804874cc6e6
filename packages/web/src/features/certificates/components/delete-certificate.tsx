import { certificateDeleteConfirmed, certificateMessages } from '@berth/core';
import { useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { messageOf } from '../../../lib/error-message.ts';

export interface DeleteCertificateProps {
  commonName: string;
  /** How many endpoints use the certificate (null while unknown). */
  endpointCount: number | null;
  /** core scopeDenial(actor, 'sensitive', environmentId). */
  denial: string | null;
  onDelete: () => Promise<unknown>;
}

/**
 * spec 2 §5: a certificate is deleted only with its common name typed exactly, and only once no
 * endpoint uses it (spec 2 §8 message). The server checks both again; its message is shown as it is.
 */
export function DeleteCertificate({ commonName, endpointCount, denial, onDelete }: DeleteCertificateProps) {
  const [typed, setTyped] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inUse = endpointCount !== null && endpointCount > 0;

  const remove = async () => {
    setFailure(null);
    setBusy(true);
    try {
      await onDelete();
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card card-body form"
      aria-label="Delete Certificate"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (!inUse && certificateDeleteConfirmed(commonName, typed)) void remove();
      }}
    >
      <h2 className="section-title">Delete Certificate</h2>
      {inUse ? <Banner variant="warning">{certificateMessages.inUse}</Banner> : null}
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <p>
        Type <strong>{commonName}</strong> to confirm.
      </p>
      <TextField
        label="Type the certificate common name to confirm"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        disabled={denial !== null || inUse}
        onChange={(event) => setTyped(event.target.value)}
      />
      <div>
        <ScopedButton
          type="submit"
          variant="danger"
          denial={denial}
          disabled={inUse || !certificateDeleteConfirmed(commonName, typed)}
          loading={busy}
        >
          Delete Certificate
        </ScopedButton>
      </div>
    </form>
  );
}
