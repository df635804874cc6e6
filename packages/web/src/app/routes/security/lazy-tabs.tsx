import { type ComponentProps, lazy, Suspense } from 'react';
import { Spinner } from '../../../components/ui/spinner.tsx';

// The environment page's Security and Activity Reports tabs load as their own chunk (issue 38), so the
// page ships only what its default tab needs.

const LazySecurity = lazy(async () => ({
  default: (await import('./environment-tabs.tsx')).EnvironmentSecurityTab,
}));
const LazyActivityReports = lazy(async () => ({
  default: (await import('./environment-tabs.tsx')).EnvironmentActivityReportsTab,
}));

const fallback = <Spinner label="Loading" />;

export function EnvironmentSecurityTab(props: ComponentProps<typeof LazySecurity>) {
  return (
    <Suspense fallback={fallback}>
      <LazySecurity {...props} />
    </Suspense>
  );
}

export function EnvironmentActivityReportsTab(props: ComponentProps<typeof LazyActivityReports>) {
  return (
    <Suspense fallback={fallback}>
      <LazyActivityReports {...props} />
    </Suspense>
  );
}
