import { useId, useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { to } from '../../../lib/paths.ts';
import {
  type Endpoint,
  endpointStatusLabel,
  endpointUrl,
  isEndpointPending,
} from '../../../resources/endpoints/endpoint.hal.ts';
import './guided-deploy.css';

export interface AppEndpointOfferProps {
  appId: string;
  endpoints: readonly Endpoint[];
  services: readonly { id: string; handle: string }[];
  /** Why the caller may not create an endpoint (action vhost.create), or null. */
  denial: string | null;
  creating: boolean;
  error: string | null;
  onCreate: (serviceId: string) => void;
}

/**
 * The deployed app's address: its endpoints with their URLs, or, when it has none, the offer to create
 * one (spec 3: "Which service needs an Endpoint?"), a default HTTP endpoint on the chosen service.
 */
export function AppEndpointOffer({
  appId,
  endpoints,
  services,
  denial,
  creating,
  error,
  onCreate,
}: AppEndpointOfferProps) {
  const titleId = useId();
  const [serviceId, setServiceId] = useState('');
  const chosen = serviceId || services[0]?.id || '';
  if (endpoints.length > 0) {
    return (
      <section className="section-stack" aria-labelledby={titleId}>
        <h2 className="section-title" id={titleId}>
          Current Endpoints
        </h2>
        <ul className="deploy-progress">
          {endpoints.map((endpoint) => {
            const url = endpointUrl(endpoint);
            return (
              <li key={endpoint.id}>
                <span className="endpoint-address">
                  {url && !isEndpointPending(endpoint) ? (
                    <a href={url} target="_blank" rel="noreferrer">
                      {url}
                    </a>
                  ) : (
                    'Provisioning'
                  )}
                </span>
                <span className="deploy-progress-status">
                  <Link to={to.endpoint(endpoint.id)}>Endpoint {endpoint.id}</Link>
                  <span>{endpointStatusLabel(endpoint.status)}</span>
                </span>
              </li>
            );
          })}
        </ul>
        <p>
          <Link to={to.app(appId, 'endpoints')}>Manage Endpoints</Link>
        </p>
      </section>
    );
  }
  return (
    <section className="section-stack" aria-labelledby={titleId}>
      <h2 className="section-title" id={titleId}>
        Which service needs an Endpoint?
      </h2>
      {services.length === 0 ? (
        <p className="muted">Your services will appear here shortly…</p>
      ) : (
        <form
          className="form"
          aria-label="Create an endpoint"
          onSubmit={(event) => {
            event.preventDefault();
            if (denial === null && chosen && !creating) onCreate(chosen);
          }}
        >
          <SelectField
            label="Service"
            value={chosen}
            options={services.map((service) => ({ value: service.id, label: service.handle }))}
            hint="A default HTTPS endpoint on the stack's domain sends the internet's requests to it."
            onChange={(event) => setServiceId(event.target.value)}
          />
          {error ? <Banner variant="error">{error}</Banner> : null}
          <div className="submit-row">
            <ScopedButton type="submit" denial={denial} loading={creating}>
              Create Endpoint
            </ScopedButton>
          </div>
        </form>
      )}
    </section>
  );
}
