import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { useEnvironmentCertificates } from '../../../features/certificates/api/use-environment-certificates.ts';
import { CertificatesTable } from '../../../features/certificates/components/certificates-table.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { icons } from '../../shell/icons.tsx';

const certificateHref = (id: string) => to.certificate(id);

/** spec 2 §2 environment Certificates tab: its certificates (polled every 5 s) and New Certificate. */
export function EnvironmentCertificatesTab({ environmentId }: { environmentId: string }) {
  const certificates = useEnvironmentCertificates(environmentId);
  // spec 2 §6: certificates are sensitive.
  const denial = useActionDenial('certificate.create', environmentId);
  return (
    <CertificatesTable
      label={`Certificates of environment ${environmentId}`}
      certificates={certificates.data ?? []}
      certificateHref={certificateHref}
      isLoading={certificates.isPending}
      error={certificates.error}
      toolbar={
        <ScopedButtonLink
          size="sm"
          denial={denial}
          to={to.createCertificate(environmentId)}
          icon={icons.plus}
        >
          New Certificate
        </ScopedButtonLink>
      }
    />
  );
}
