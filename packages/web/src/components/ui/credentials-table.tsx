import type { ReactNode } from 'react';
import { EmptyState } from './empty-state.tsx';
import { type StaticColumn, StaticTable } from './static-table.tsx';

/** What a credentials row needs of a database credential (contract §4.3). */
export interface CredentialRow {
  id: string;
  type: string;
  isDefault: boolean;
}

/**
 * A database's credentials, one row each: the type (marked when it is the default) first, then the cells
 * `cells` renders; no credentials show an empty state instead.
 */
export function CredentialsTable<T extends CredentialRow>({
  credentials,
  caption,
  columns,
  cells,
}: {
  credentials: readonly T[];
  caption: string;
  columns: readonly StaticColumn[];
  cells: (credential: T) => ReactNode;
}) {
  if (credentials.length === 0) {
    return <EmptyState title="No resources found" description="This database has no credentials yet." />;
  }
  return (
    <StaticTable caption={caption} columns={columns}>
      {credentials.map((credential) => (
        <tr key={credential.id}>
          <td>
            {credential.type}
            {credential.isDefault ? ' (default)' : ''}
          </td>
          {cells(credential)}
        </tr>
      ))}
    </StaticTable>
  );
}
