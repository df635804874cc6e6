import { sshKeyMessages } from '@berth/core';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { showToast } from '../../../components/ui/toast.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { SshKey } from '../api/ssh-keys.ts';

/** spec 1 §2 "SSH Keys list": name, fingerprint, added, and Delete asked twice. */
export function SshKeyList({
  keys,
  onDelete,
}: {
  keys: readonly SshKey[];
  onDelete: (id: string) => Promise<unknown>;
}) {
  if (keys.length === 0) {
    return (
      <EmptyState
        title="No SSH keys yet"
        description="Add a public key to push code and open SSH sessions."
      />
    );
  }
  return (
    <StaticTable
      caption="SSH keys"
      columns={['Name', 'Fingerprint', 'Added', { label: 'Actions', hidden: true }]}
    >
      {keys.map((key) => (
        <tr key={key.id}>
          <td>{key.name}</td>
          <td>
            <code>{key.sha256Fingerprint}</code>
          </td>
          <td>{formatDateTime(key.createdAt)}</td>
          <td>
            <ConfirmButton
              label={`Delete ${key.name}`}
              confirmLabel={`Confirm delete ${key.name}`}
              warning="Git pushes and SSH sessions with this key will stop working."
              denial={null}
              onConfirm={async () => {
                try {
                  await onDelete(key.id);
                  showToast(sshKeyMessages.deleted);
                } catch (error) {
                  showToast(error instanceof Error ? error.message : String(error), 'error');
                  throw error;
                }
              }}
            >
              Delete
            </ConfirmButton>
          </td>
        </tr>
      ))}
    </StaticTable>
  );
}
