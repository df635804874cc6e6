import {
  type Endpoint,
  endpointStatusLabel,
  endpointStatusTone,
  needsDnsSetup,
} from '../../../resources/endpoints/endpoint.hal.ts';
import './endpoints.css';

/**
 * spec 2 §4 endpoint status, coloured like the operation banners (success, error, progress). Issue 41:
 * a managed HTTPS endpoint whose certificate still waits for the user's DNS records is not ready: it
 * reads "Awaiting DNS" in the progress colour, not a green Provisioned, until the certificate is issued.
 */
export function EndpointStatusPill({
  status,
  endpoint,
}: {
  status: string;
  endpoint?: Pick<Endpoint, 'acme' | 'acmeStatus' | 'status'>;
}) {
  if (endpoint && needsDnsSetup(endpoint)) {
    return <span className="status-pill status-pill-progress">Awaiting DNS</span>;
  }
  const tone = endpointStatusTone(status);
  return (
    <span className={`status-pill${tone ? ` status-pill-${tone}` : ''}`}>{endpointStatusLabel(status)}</span>
  );
}
