import { emptyStateMessages } from '@berth/core';
import { useRef, useState } from 'react';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { dateTimeColumn, valueColumn } from '../../../components/ui/data-table-columns.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import type { Invitation } from '../../../resources/invitations/invitation.hal.ts';
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

function InvitationActions({
  row,
  onResend,
  onRevoke,
  focusAfterRevoke,
}: { row: PendingInvitationRow; focusAfterRevoke: () => HTMLElement | null | undefined } & Pick<
  PendingInvitationsTableProps,
  'onResend' | 'onRevoke'
>) {
  const [busy, setBusy] = useState<'resend' | 'revoke' | null>(null);
  const run = async (action: 'resend' | 'revoke') => {
    setBusy(action);
    try {
      await (action === 'resend' ? onResend(row) : onRevoke(row));
    } finally {
      setBusy(null);
    }
  };
  return (
    <span className="invitations-row-actions">
      <ScopedButton
        size="sm"
        variant="secondary"
        denial={row.manageDenial}
        aria-label={`Resend invitation to ${row.email}`}
        loading={busy === 'resend'}
        disabled={busy === 'revoke'}
        onClick={() => run('resend')}
      >
        Resend
      </ScopedButton>
      <ConfirmButton
        label={`Revoke invitation to ${row.email}`}
        confirmLabel={`Confirm revoke ${row.email}`}
        denial={row.manageDenial}
        disabled={busy === 'resend'}
        focusAfter={focusAfterRevoke}
        onConfirm={() => run('revoke')}
      >
        Revoke
      </ConfirmButton>
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
  const container = useRef<HTMLDivElement>(null);
  // A revoked invitation's row goes away: focus the table, or the empty state once none is left.
  const focusAfterRevoke = () =>
    container.current?.querySelector<HTMLElement>('table') ??
    container.current?.querySelector<HTMLElement>('.empty-state-title');
  if (!isLoading && !error && rows.length === 0) {
    return (
      <div ref={container} className="card">
        <EmptyState title={emptyStateMessages.noPendingInvitations} />
      </div>
    );
  }
  const columns: DataTableColumn<PendingInvitationRow>[] = [
    valueColumn('email', 'Email', (row) => row.email),
    valueColumn('role', 'Role', (row) => row.roleName),
    valueColumn('inviter', 'Invited By', (row) => row.inviterName),
    dateTimeColumn('sent', 'Sent', (row) => row.createdAt),
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
      cell: (row) => (
        <InvitationActions
          row={row}
          onResend={onResend}
          onRevoke={onRevoke}
          focusAfterRevoke={focusAfterRevoke}
        />
      ),
      align: 'right',
    },
  ];
  return (
    <div ref={container}>
      <DataTable<PendingInvitationRow>
        label="Pending invitations"
        rows={rows}
        columns={columns}
        searchText={(row) => [row.email, row.roleName, row.inviterName]}
        isLoading={isLoading}
        error={error}
        searchPlaceholder="Search invitations"
        defaultSort={(a, b) => b.createdAt.localeCompare(a.createdAt)}
      />
    </div>
  );
}
