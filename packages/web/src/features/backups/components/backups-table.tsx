import { useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ConfirmButton } from '../../../components/ui/confirm-button.tsx';
import { DataTable, type DataTableColumn } from '../../../components/ui/data-table.tsx';
import { ScopedButtonLink } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import type { Backup } from '../../../resources/backups/backup.hal.ts';
import { type BackupPage, usePurgeBackup } from '../api/use-backups.ts';
import './backups.css';

export interface BackupsTableProps {
  /** The table's accessible name. */
  label: string;
  /** The current server page of backups (undefined while loading). */
  data: BackupPage | undefined;
  isLoading: boolean;
  error: Error | null;
  page: number;
  onPageChange: (page: number) => void;
}

/** Size in GB as the table shows it (a backup under 1 GB keeps its decimals). */
export function formatBackupSize(sizeGb: number): string {
  return `${Number.isInteger(sizeGb) ? sizeGb : sizeGb.toFixed(2).replace(/0+$/, '')} GB`;
}

/**
 * spec 2 §2 Backups: ID, Database, Type, Size, Region, Created At, Creator, Operation ID, with Restore and
 * Delete (purge, confirmed first). The server pages the list (contract §3, page=N, newest first).
 */
export function BackupsTable({ label, data, isLoading, error, page, onPageChange }: BackupsTableProps) {
  const denialOf = useActionDenials();
  const purge = usePurgeBackup();
  const [purged, setPurged] = useState<string | null>(null);
  const pageCount = Math.max(1, Math.ceil((data?.totalCount ?? 0) / (data?.perPage || 1)));
  const columns: DataTableColumn<Backup>[] = [
    { id: 'id', header: 'ID', cell: (backup) => backup.id },
    {
      id: 'database',
      header: 'Database',
      cell: (backup) =>
        backup.databaseId ? (
          <Link to={to.database(backup.databaseId)}>{backup.databaseHandle}</Link>
        ) : (
          backup.databaseHandle
        ),
    },
    { id: 'type', header: 'Type', cell: (backup) => backup.label },
    { id: 'size', header: 'Size', cell: (backup) => formatBackupSize(backup.sizeGb) },
    { id: 'region', header: 'Region', cell: (backup) => backup.region },
    { id: 'created', header: 'Created At', cell: (backup) => formatDateTime(backup.createdAt) },
    { id: 'creator', header: 'Creator', cell: (backup) => backup.createdByEmail || '-' },
    {
      id: 'operation',
      header: 'Operation ID',
      cell: (backup) =>
        backup.operationId ? <Link to={to.operation(backup.operationId)}>{backup.operationId}</Link> : '-',
    },
    {
      id: 'actions',
      header: 'Actions',
      headerHidden: true,
      cell: (backup) => (
        <span className="backup-actions">
          <ScopedButtonLink
            size="sm"
            variant="secondary"
            denial={denialOf('backup.restore', backup.environmentId)}
            to={to.backupRestore(backup.id)}
          >
            Restore
          </ScopedButtonLink>
          <ConfirmButton
            label={`Delete backup ${backup.id}`}
            confirmLabel={`Confirm delete backup ${backup.id}`}
            warning="The backup is deleted for good."
            denial={denialOf('backup.purge', backup.environmentId)}
            onConfirm={async () => {
              setPurged(null);
              await purge.mutateAsync(backup.id);
              setPurged(backup.id);
            }}
          >
            Delete
          </ConfirmButton>
        </span>
      ),
    },
  ];
  return (
    <div className="backup-stack">
      {purge.isError ? <Banner variant="error">{messageOf(purge.error)}</Banner> : null}
      {purged ? <Banner variant="success">{`Deleting backup ${purged}.`}</Banner> : null}
      <DataTable
        label={label}
        rows={data?.backups ?? []}
        columns={columns}
        isLoading={isLoading}
        error={error}
        serverPaging={{ page, pageCount, onPageChange }}
      />
    </div>
  );
}
