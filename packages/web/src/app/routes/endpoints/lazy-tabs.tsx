import { type ComponentProps, lazy, Suspense } from 'react';
import { Spinner } from '../../../components/ui/spinner.tsx';

// The endpoint and certificate tabs of the app and environment pages load as their own chunk, so
// those pages ship only what their default tab needs.

const LazyAppEndpoints = lazy(async () => ({
  default: (await import('./endpoint-tabs.tsx')).AppEndpointsTab,
}));
const LazyEnvironmentEndpoints = lazy(async () => ({
  default: (await import('./endpoint-tabs.tsx')).EnvironmentEndpointsTab,
}));
const LazyEnvironmentEndpointsSummary = lazy(async () => ({
  default: (await import('./endpoint-tabs.tsx')).EnvironmentEndpointsSummary,
}));
const LazyEnvironmentCertificates = lazy(async () => ({
  default: (await import('../certificates/environment-certificates-tab.tsx')).EnvironmentCertificatesTab,
}));

const LazyEnvironmentIntegrations = lazy(async () => ({
  default: (await import('../drains/environment-integrations-tab.tsx')).EnvironmentIntegrationsTab,
}));

const fallback = <Spinner label="Loading" />;

export function AppEndpointsTab(props: ComponentProps<typeof LazyAppEndpoints>) {
  return (
    <Suspense fallback={fallback}>
      <LazyAppEndpoints {...props} />
    </Suspense>
  );
}

export function EnvironmentEndpointsTab(props: ComponentProps<typeof LazyEnvironmentEndpoints>) {
  return (
    <Suspense fallback={fallback}>
      <LazyEnvironmentEndpoints {...props} />
    </Suspense>
  );
}

export function EnvironmentCertificatesTab(props: ComponentProps<typeof LazyEnvironmentCertificates>) {
  return (
    <Suspense fallback={fallback}>
      <LazyEnvironmentCertificates {...props} />
    </Suspense>
  );
}

/** The environment detail's endpoint count (with the endpoints when 5 or fewer); the count alone while loading. */
export function EnvironmentEndpointsSummary(props: ComponentProps<typeof LazyEnvironmentEndpointsSummary>) {
  return (
    <Suspense fallback={String(props.count)}>
      <LazyEnvironmentEndpointsSummary {...props} />
    </Suspense>
  );
}

/** The environment's Integrations tab: its log and metric drains. */
export function EnvironmentIntegrationsTab(props: ComponentProps<typeof LazyEnvironmentIntegrations>) {
  return (
    <Suspense fallback={fallback}>
      <LazyEnvironmentIntegrations {...props} />
    </Suspense>
  );
}
