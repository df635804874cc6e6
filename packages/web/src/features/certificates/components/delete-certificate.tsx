import { certificateDeleteConfirmed, certificateMessages } from '@berth/core';
import { Banner } from '../../../components/ui/banner.tsx';
import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';

export interface DeleteCertificateProps {
  commonName: string;
  /** How many endpoints use the certificate (null while unknown). */
  endpointCount: number | null;
  /** Why the caller may not delete it (action certificate.delete), or null. */
  denial: string | null;
  onDelete: () => Promise<unknown>;
}

/**
 * spec 2 §5: a certificate is deleted only with its common name typed exactly, and only once no
 * endpoint uses it (spec 2 §8 message). The server checks both again; its message is shown as it is.
 */
export function DeleteCertificate({ commonName, endpointCount, denial, onDelete }: DeleteCertificateProps) {
  const inUse = endpointCount !== null && endpointCount > 0;
  return (
    <TypedConfirmation
      as="form"
      title="Delete Certificate"
      notices={inUse ? <Banner variant="warning">{certificateMessages.inUse}</Banner> : null}
      expected={commonName}
      matches={(typed) => certificateDeleteConfirmed(commonName, typed)}
      fieldLabel="Type the certificate common name to confirm"
      denial={denial}
      blocked={inUse}
      onConfirm={onDelete}
    >
      <p>
        Type <strong>{commonName}</strong> to confirm.
      </p>
    </TypedConfirmation>
  );
}
