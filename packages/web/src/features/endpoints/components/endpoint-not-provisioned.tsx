import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';

/**
 * An endpoint whose record exists but that was never provisioned (status pending: the create flow's
 * second step, spec 2 §4, did not run). Provisioning is offered here rather than on the create form,
 * where saving again would create a second endpoint.
 */
export function EndpointNotProvisioned({
  error,
  denial,
  isPending,
  onProvision,
}: {
  /** Why the create flow could not start the provision, when the page was opened by it. */
  error: string | null;
  /** Why the caller may not provision it (action vhost.provision), or null. */
  denial: string | null;
  isPending: boolean;
  onProvision: () => void;
}) {
  return (
    <Banner
      variant={error ? 'error' : 'warning'}
      title="This endpoint is not provisioned"
      actions={
        <ScopedButton size="sm" denial={denial} loading={isPending} onClick={onProvision}>
          Provision Endpoint
        </ScopedButton>
      }
    >
      {error
        ? `The endpoint was created, but provisioning could not start: ${error}`
        : 'The endpoint was created, but no provision operation has run yet.'}
    </Banner>
  );
}
