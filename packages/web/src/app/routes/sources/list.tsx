import { useMemo } from 'react';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useSources } from '../../../features/sources/api/use-sources.ts';
import { SourcesTable } from '../../../features/sources/components/sources-table.tsx';
import { paths } from '../../../lib/paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

/** spec 3 §2 /sources: the selected organization's sources with their apps, deployments and live commits. */
function SourcesRoute() {
  const { organization } = useConsoleContext();
  const sources = useSources();
  const rows = useMemo(
    () =>
      (sources.data ?? [])
        .filter((entry) => entry.organizationId === organization?.id)
        .map((entry) => entry.source),
    [sources.data, organization?.id],
  );
  return (
    <>
      <PageHeader
        title="Sources"
        description="The git repositories your apps are deployed from."
        actions={
          <ButtonLink to={paths.sourcesSetup} variant="secondary">
            Set up a source
          </ButtonLink>
        }
      />
      <SourcesTable sources={rows} isLoading={sources.isPending} error={sources.error} />
    </>
  );
}

export { SourcesRoute as Component };
