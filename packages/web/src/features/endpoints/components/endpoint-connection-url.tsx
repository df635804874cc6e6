import { CredentialsTable } from '../../../components/ui/credentials-table.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { SecretUrlCells } from '../../../components/ui/secret-url.tsx';
import { endpointConnectionUrl } from '../../../resources/databases/database-endpoint-url.ts';
import { useDatabase, useDatabaseCredentials } from '../../../resources/databases/use-databases.ts';
import { type Endpoint, endpointHostname } from '../../../resources/endpoints/endpoint.hal.ts';
import './endpoints.css';
import { DenialBanner } from '../../../components/ui/denial-banner.tsx';

/**
 * spec 2 §2 endpoint tab Connection URL (database endpoints): each credential of the database rewritten
 * to the endpoint's host and published port (contract §4.3 port_mapping), its password masked until
 * Reveal (issue 41). Credentials need the sensitive
 * scope (spec 2 §6): without it nothing is asked and the rule's message shows instead.
 */
export function EndpointConnectionUrl({
  endpoint,
  databaseId,
  denial,
}: {
  endpoint: Endpoint;
  databaseId: string;
  denial: string | null;
}) {
  const allowed = denial === null;
  const database = useDatabase(allowed ? databaseId : '');
  const credentials = useDatabaseCredentials(databaseId, allowed);
  if (denial) return <DenialBanner denial={denial} />;
  const host = endpointHostname(endpoint);
  if (!host) {
    return (
      <EmptyState
        title="Not available yet"
        description="The connection URL shows once the endpoint is provisioned and has a hostname."
      />
    );
  }
  return (
    <QueryState query={database} loadingLabel="Loading database">
      {(current) => (
        <QueryState query={credentials} loadingLabel="Loading connection URL">
          {(list) => (
            <CredentialsTable
              credentials={list}
              caption="Connection URL"
              columns={['Type', 'Connection URL', { label: 'Actions', hidden: true }]}
              cells={(credential) => (
                <SecretUrlCells
                  url={endpointConnectionUrl(credential.connectionUrl, current.portMapping, host)}
                  name={`the connection URL of ${credential.type}`}
                  className="endpoint-connection-url"
                />
              )}
            />
          )}
        </QueryState>
      )}
    </QueryState>
  );
}
