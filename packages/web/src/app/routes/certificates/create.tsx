import { Link, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCreateCertificate } from '../../../features/certificates/api/use-create-certificate.ts';
import { CreateCertificateForm } from '../../../features/certificates/components/create-certificate-form.tsx';
import { useEnvironment } from '../../../features/environments/api/use-environment.ts';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';

/** spec 2 §2 /environments/{id}/certificates/create: upload a certificate and its key, then open it. */
function CreateCertificateRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const denial = useActionDenial('certificate.create', id);
  const environment = useEnvironment(id);
  const create = useCreateCertificate(id);

  if (environment.isError) return <Banner variant="error">Error: {environment.error.message}</Banner>;
  if (!environment.data) return <Spinner label="Loading environment" />;
  return (
    <>
      <PageHeader
        title="New Certificate"
        description={
          <>
            For custom HTTPS endpoints in{' '}
            <Link to={to.environment(id, 'certificates')}>{environment.data.handle}</Link>
          </>
        }
      />
      <CreateCertificateForm
        denial={denial}
        onSubmit={async (input) => {
          const certificate = await create.mutateAsync(input);
          navigate(to.certificate(certificate.id));
        }}
      />
    </>
  );
}

export { CreateCertificateRoute as Component };
