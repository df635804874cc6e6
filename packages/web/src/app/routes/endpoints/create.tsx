import { scopeDenial } from '@berth/core';
import { Link, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useApp } from '../../../features/apps/api/use-app.ts';
import { commonNameLabel } from '../../../features/certificates/api/certificate.hal.ts';
import { useCreateCertificate } from '../../../features/certificates/api/use-create-certificate.ts';
import { useEnvironmentCertificates } from '../../../features/certificates/api/use-environment-certificates.ts';
import { useCreateEndpoint } from '../../../features/endpoints/api/use-create-endpoint.ts';
import { CreateEndpointForm } from '../../../features/endpoints/components/create-endpoint-form.tsx';
import { useAppServices } from '../../../features/services/api/use-app-services.ts';
import { serviceUrl } from '../../../lib/api-client.ts';
import { to } from '../../paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 2 §2 /apps/{id}/endpoints/create. spec 2 §4 endpoint provisioning: upload a certificate if
 * needed, create the endpoint, run a provision operation, then open the endpoint's page.
 */
function CreateEndpointRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const { actor } = useConsoleContext();
  const app = useApp(id);
  const environmentId = app.data?.environmentId ?? '';
  const services = useAppServices(id);
  const certificates = useEnvironmentCertificates(environmentId, { poll: false });
  const uploadCertificate = useCreateCertificate(environmentId);
  const createEndpoint = useCreateEndpoint();

  if (app.isError) return <Banner variant="error">Error: {app.error.message}</Banner>;
  if (services.isError) return <Banner variant="error">Error: {services.error.message}</Banner>;
  if (!app.data || !services.data) return <Spinner label="Loading app" />;

  const current = app.data;
  const certificateHref = (certificateId: string) =>
    certificates.data?.find((item) => item.id === certificateId)?.href ||
    serviceUrl('api', `/certificates/${certificateId}`);

  return (
    <>
      <PageHeader
        title="New Endpoint"
        description={
          <>
            Expose a service of <Link to={to.app(current.id, 'endpoints')}>{current.handle}</Link>
          </>
        }
      />
      {services.data.length === 0 ? (
        <Banner variant="warning">
          This app has no services yet. Deploy it first: its services appear with the first deployment.
        </Banner>
      ) : null}
      <CreateEndpointForm
        services={services.data.map((service) => ({
          id: service.id,
          label: service.handle || service.processType || `Service ${service.id}`,
        }))}
        certificates={(certificates.data ?? []).map((certificate) => ({
          id: certificate.id,
          label: `${commonNameLabel(certificate)} (${certificate.id})`,
        }))}
        denial={scopeDenial(actor, 'deploy', current.environmentId)}
        onSubmit={async ({ serviceId, body, certificate }) => {
          let certificateUrl: string | undefined;
          if (certificate.kind === 'new') {
            const uploaded = await uploadCertificate.mutateAsync({
              certificate_body: certificate.certificate_body,
              private_key: certificate.private_key,
            });
            certificateUrl = uploaded.href || serviceUrl('api', `/certificates/${uploaded.id}`);
          } else if (certificate.kind === 'existing') {
            certificateUrl = certificateHref(certificate.id);
          }
          const created = await createEndpoint.mutateAsync({
            serviceId,
            body: certificateUrl ? { ...body, certificate: certificateUrl } : body,
          });
          navigate(to.endpoint(created.endpoint.id));
        }}
      />
    </>
  );
}

export { CreateEndpointRoute as Component };
