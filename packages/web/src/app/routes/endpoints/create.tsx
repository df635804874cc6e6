import { useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCreateCertificate } from '../../../features/certificates/api/use-create-certificate.ts';
import { useEnvironmentCertificates } from '../../../features/certificates/api/use-environment-certificates.ts';
import { useCreateEndpoint } from '../../../features/endpoints/api/use-create-endpoint.ts';
import { CreateEndpointForm } from '../../../features/endpoints/components/create-endpoint-form.tsx';
import { useAppServices } from '../../../features/services/api/use-app-services.ts';
import { serviceUrl } from '../../../lib/api-client.ts';
import { to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import { useApp } from '../../../resources/apps/use-app.ts';
import { commonNameLabel } from '../../../resources/certificates/certificate.hal.ts';

/** What the endpoint page reads from the navigation that the create flow ends with. */
export interface EndpointCreatedState {
  provisionError: string | null;
}

/**
 * spec 2 §2 /apps/{id}/endpoints/create. spec 2 §4 endpoint provisioning: upload a certificate if
 * needed, create the endpoint, run a provision operation, then open the endpoint's page.
 *
 * Saving again after a failure must not repeat a finished step: a certificate already uploaded is
 * reused (same certificate text), and once the endpoint exists the flow ends on its page, which shows
 * a provisioning failure and offers the provision again (saving here would create a second endpoint).
 */
function CreateEndpointRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const denialOf = useActionDenials();
  const app = useApp(id);
  const environmentId = app.data?.environmentId ?? '';
  const services = useAppServices(id);
  const certificates = useEnvironmentCertificates(environmentId, { poll: false });
  const uploadCertificate = useCreateCertificate(environmentId);
  const createEndpoint = useCreateEndpoint();
  // The certificate this form has uploaded (its PEM body, which is public, and its URL); never the key.
  const uploaded = useRef<{ body: string; url: string } | null>(null);

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
        denial={denialOf('vhost.create', current.environmentId)}
        onSubmit={async ({ serviceId, body, certificate }) => {
          let certificateUrl: string | undefined;
          if (certificate.kind === 'new') {
            let upload = uploaded.current;
            if (upload?.body !== certificate.certificate_body) {
              const record = await uploadCertificate.mutateAsync({
                certificate_body: certificate.certificate_body,
                private_key: certificate.private_key,
              });
              // Drop the request (and its private key) from the mutation's state at once.
              uploadCertificate.reset();
              upload = {
                body: certificate.certificate_body,
                url: record.href || serviceUrl('api', `/certificates/${record.id}`),
              };
              uploaded.current = upload;
            }
            certificateUrl = upload.url;
          } else if (certificate.kind === 'existing') {
            certificateUrl = certificateHref(certificate.id);
          }
          const created = await createEndpoint.mutateAsync({
            serviceId,
            body: certificateUrl ? { ...body, certificate: certificateUrl } : body,
          });
          const state: EndpointCreatedState = { provisionError: created.provisionError };
          navigate(to.endpoint(created.endpoint.id), { state });
        }}
      />
    </>
  );
}

export { CreateEndpointRoute as Component };
