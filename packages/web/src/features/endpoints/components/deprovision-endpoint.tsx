import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';

export interface DeprovisionEndpointProps {
  /** The hostname the detail shows; spec 2 §5: it must be typed exactly. */
  hostname: string;
  /** Why the caller may not deprovision it (action vhost.deprovision), or null. */
  denial: string | null;
  onDeprovision: () => Promise<unknown>;
}

/**
 * spec 2 §2 Deprovision Endpoint: the hostname typed exactly (an endpoint without one yet cannot be
 * confirmed), then a deprovision operation.
 */
export function DeprovisionEndpoint({ hostname, denial, onDeprovision }: DeprovisionEndpointProps) {
  return (
    <TypedConfirmation
      as="form"
      title="Deprovision Endpoint"
      description={
        <>
          Deprovisioning removes the endpoint and its load balancer; traffic to it stops. Type{' '}
          <strong>{hostname}</strong> to confirm.
        </>
      }
      expected={hostname}
      fieldLabel="Type the endpoint hostname to confirm"
      denial={denial}
      onConfirm={onDeprovision}
    />
  );
}
