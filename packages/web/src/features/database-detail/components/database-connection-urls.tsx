import { CredentialsTable } from '../../../components/ui/credentials-table.tsx';
import { DenialBanner } from '../../../components/ui/denial-banner.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { SecretUrlCells } from '../../../components/ui/secret-url.tsx';
import { useDatabaseCredentials } from '../../../resources/databases/use-databases.ts';

/**
 * spec 2 §2 Connection URLs: the database's credentials, each with its password masked until Reveal
 * (issue 41) and a copy button that copies the real URL. They need the
 * sensitive scope (spec 2 §6): without it nothing is asked and the rule's message is shown instead.
 */
export function DatabaseConnectionUrls({
  databaseId,
  denial,
}: {
  databaseId: string;
  denial: string | null;
}) {
  const credentials = useDatabaseCredentials(databaseId, denial === null);
  if (denial) return <DenialBanner denial={denial} />;
  return (
    <QueryState query={credentials} loadingLabel="Loading connection URLs">
      {(list) => (
        <CredentialsTable
          credentials={list}
          caption="Connection URLs"
          columns={['Type', 'Connection URL', { label: 'Actions', hidden: true }]}
          cells={(credential) => (
            <SecretUrlCells
              url={credential.connectionUrl}
              name={`${credential.type} connection URL`}
              className="database-connection-url"
            />
          )}
        />
      )}
    </QueryState>
  );
}
