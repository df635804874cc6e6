import { endpointStatusLabel, endpointStatusTone } from '../../../resources/endpoints/endpoint.hal.ts';
import './endpoints.css';

/** spec 2 §4 endpoint status, coloured like the operation banners (success, error, progress). */
export function EndpointStatusPill({ status }: { status: string }) {
  const tone = endpointStatusTone(status);
  return (
    <span className={`status-pill${tone ? ` status-pill-${tone}` : ''}`}>{endpointStatusLabel(status)}</span>
  );
}
