import { Link, useNavigate, useParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useCreateEndpoint } from '../../../features/endpoints/api/use-create-endpoint.ts';
import { CreateDatabaseEndpointForm } from '../../../features/endpoints/components/create-database-endpoint-form.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useDatabase } from '../../../resources/databases/use-databases.ts';
import type { EndpointCreatedState } from './create.tsx';

/**
 * spec 2 §2 /databases/{id}/endpoints/create. spec 2 §4 endpoint provisioning: create the endpoint on
 * the database's service (contract §5.9 database endpoint), run a provision operation, then open the
 * endpoint's page, which offers the provision again if that call failed.
 */
function CreateDatabaseEndpointRoute() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const database = useDatabase(id);
  const denial = useActionDenial('vhost.create', database.data?.environmentId ?? null);
  const createEndpoint = useCreateEndpoint();

  if (database.isError) return <Banner variant="error">Error: {database.error.message}</Banner>;
  if (!database.data) return <Spinner label="Loading database" />;
  const current = database.data;
  const serviceId = current.serviceId;

  return (
    <>
      <PageHeader
        title="New Endpoint"
        description={
          <>
            Expose database <Link to={to.database(current.id, 'endpoints')}>{current.handle}</Link>
          </>
        }
      />
      <CreateDatabaseEndpointForm
        denial={denial}
        unavailable={
          serviceId ? null : 'This database is not provisioned yet: it takes an endpoint once it is.'
        }
        onSubmit={async (body) => {
          if (!serviceId) return;
          const created = await createEndpoint.mutateAsync({ serviceId, body });
          const state: EndpointCreatedState = { provisionError: created.provisionError };
          navigate(to.endpoint(created.endpoint.id), { state });
        }}
      />
    </>
  );
}

export { CreateDatabaseEndpointRoute as Component };
