import { invitationMessages } from '@berth/core';
import { useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import type { Invitation } from '../api/invitation.hal.ts';
import './invitations.css';

export interface PendingInvitationRow extends Invitation {
  /** Why Resend and Revoke are disabled (spec 1 §6 role management), or null. */
  manageDenial: string | null;
}

export interface PendingInvitationsTableProps {
  rows: readonly PendingInvitationRow[];
  isLoading: boolean;
  error: Error | null;
  onResend: (invitation: PendingInvitationRow) => Promise<unknown>;
  onRevoke: (invitation: PendingInvitationRow) => Promise<unknown>;
}

function sentAt(value: string): string {
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toLocaleString() : '-';
}

function InvitationActions({
  row,
  onResend,
  onRevoke,
}: { row: PendingInvitationRow } & Pick<PendingInvitationsTableProps, 'onResend' | 'onRevoke'>) {
  const [busy, setBusy] = useState<'resend' | 'revoke' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const run = async (action: 'resend' | 'revoke') => {
    setBusy(action);
    try {
      await (action === 'resend' ? onResend(row) : onRevoke(row));
    } finally {
      setBusy(null);
      setConfirming(false);
    }
  };
  if (confirming) {
    return (
      <span className="invitations-row-actions">
        <Button size="sm" variant="danger" loading={busy === 'revoke'} onClick={() => run('revoke')}>
          Confirm revoke {row.email}
        </Button>
        <Button size="sm" variant="ghost" disabled={busy !== null} onClick={() => setConfirming(false)}>
          Cancel
        </Button>
      </span>
    );
  }
  return (
    <span className="invitations-row-actions">
      <ScopedButton
        size="sm"
        variant="secondary"
        denial={row.manageDenial}
        aria-label={`Resend invitation to ${row.email}`}
        loading={busy === 'resend'}
        onClick={() => run('resend')}
      >
        Resend
      </ScopedButton>
      <ScopedButton
        size="sm"
        variant="secondary"
        denial={row.manageDenial}
        aria-label={`Revoke invitation to ${row.email}`}
        disabled={busy !== null}
        onClick={() => setConfirming(true)}
      >
        Revoke
      </ScopedButton>
    </span>
  );
}

/** spec 1 §2 Pending Invites: email, role, inviter, when it was sent and whether it expired. */
export function PendingInvitationsTable({
  rows,
  isLoading,
  error,
  onResend,
  onRevoke,
}: PendingInvitationsTableProps) {
  if (!isLoading && !error && rows.length === 0) {
    return (
      <div className="card">
        <EmptyState title={invitationMessages.noPending} />
      </div>
    );
  }
  const columns: DataTableColumn<PendingInvitationRow>[] = [
    { id: 'email', header: 'Email', cell: (row) => row.email, sortValue: (row) => row.email },
    { id: 'role', header: 'Role', cell: (row) => row.roleName, sortValue: (row) => row.roleName },
    {
      id: 'inviter',
      header: 'Invited By',
      cell: (row) => row.inviterName,
      sortValue: (row) => row.inviterName,
    },
    { id: 'sent', header: 'Sent', cell: (row) => sentAt(row.createdAt), sortValue: (row) => row.createdAt },
    {
      id: 'status',
      header: 'Status',
      cell: (row) =>
        row.expired ? (
          <span className="badge badge-warning">Expired</span>
        ) : (
          <span className="badge">Pending</span>
        ),
      sortValue: (row) => (row.expired ? 1 : 0),
    },
    {
      id: 'actions',
      header: 'Actions',
      cell: (row) => <InvitationActions row={row} onResend={onResend} onRevoke={onRevoke} />,
      align: 'right',
    },
  ];
  return (
    <DataTable<PendingInvitationRow>
      label="Pending invitations"
      rows={rows}
      columns={columns}
      getRowId={(row) => row.id}
      searchText={(row) => [row.email, row.roleName, row.inviterName]}
      isLoading={isLoading}
      error={error}
      searchPlaceholder="Search invitations"
      defaultSort={(a, b) => b.createdAt.localeCompare(a.createdAt)}
    />
  );
}
