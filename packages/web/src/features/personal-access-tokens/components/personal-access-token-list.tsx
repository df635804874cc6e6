import { personalAccessTokenMessages } from '@berth/core';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { PersonalAccessToken } from '../api/personal-access-tokens.ts';

export const SCOPE_LABELS: Record<string, string> = {
  manage: 'Manage (read and write)',
  read: 'Read only',
};

/**
 * The user's personal access tokens: name, scope, when made, when it expires (or expired), its last use,
 * and Revoke asked twice. An account holds at most 50 live tokens, so a plain table holds them all.
 */
export function PersonalAccessTokenList({
  tokens,
  onRevoke,
}: {
  tokens: readonly PersonalAccessToken[];
  onRevoke: (id: string) => Promise<unknown>;
}) {
  if (tokens.length === 0) {
    return (
      <EmptyState
        title={personalAccessTokenMessages.empty}
        description="Generate a token to push code with git or call the API from scripts and CI."
      />
    );
  }
  return (
    <StaticTable
      caption="Access tokens"
      columns={['Name', 'Scope', 'Created', 'Expires', 'Last used', { label: 'Actions', hidden: true }]}
    >
      {tokens.map((token) => (
        <tr key={token.id}>
          <td>{token.name}</td>
          <td>{SCOPE_LABELS[token.scope] ?? token.scope}</td>
          <td>{formatDateTime(token.createdAt)}</td>
          <td>
            {token.expired ? <strong>Expired </strong> : null}
            {formatDateTime(token.expiresAt)}
          </td>
          <td>{formatDateTime(token.lastUsedAt, 'Never')}</td>
          <td>
            <ConfirmButton
              label={`Revoke ${token.name}`}
              confirmLabel={`Confirm revoke ${token.name}`}
              warning="Git pushes and API calls with this token will be refused."
              denial={null}
              onConfirm={async () => {
                try {
                  await onRevoke(token.id);
                  showToast(personalAccessTokenMessages.revoked);
                } catch (error) {
                  showToast(error instanceof Error ? error.message : String(error), 'error');
                  throw error;
                }
              }}
            >
              Revoke
            </ConfirmButton>
          </td>
        </tr>
      ))}
    </StaticTable>
  );
}
