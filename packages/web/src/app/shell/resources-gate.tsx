import type { ReactNode } from 'react';
import { Banner } from '../../components/ui/banner.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useConsoleContext } from './use-console.ts';

/**
 * A list page over the console's stacks and environments: their load error, or the page spinner while
 * they load, then the page's own content.
 */
export function ResourcesGate({ loadingLabel, children }: { loadingLabel: string; children: ReactNode }) {
  const { resources } = useConsoleContext();
  if (resources.status === 'error') return <Banner variant="error">Error: {resources.message}</Banner>;
  if (resources.status !== 'success') {
    return (
      <div className="page-loading">
        <Spinner label={loadingLabel} />
      </div>
    );
  }
  return children;
}

/** The cost endpoint's failure above a list whose cost column then stays empty. */
export function CostsErrorBanner({ error }: { error: Error | null }) {
  return error ? <Banner variant="error">Error: {error.message}</Banner> : null;
}
