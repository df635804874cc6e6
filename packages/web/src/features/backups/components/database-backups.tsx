import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { to } from '../../../lib/paths.ts';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { backupKeys } from '../../../resources/backups/backup-keys.ts';
import type { Database } from '../../../resources/databases/database.hal.ts';
import { useCreateBackup, useDatabaseBackups, useRetentionPolicy } from '../api/use-backups.ts';
import { BackupsTable } from './backups-table.tsx';
import { BackupOperationStatus } from './operation-status.tsx';
import { RetentionPolicySummary } from './retention-policy.tsx';
import './backups.css';

/**
 * The database page's Backups tab (spec 2 §2): its backups, newest first and server-paged, a Create
 * Backup button (a `backup` operation, followed until it ends) and the environment's policy in force.
 */
export function DatabaseBackups({ database }: { database: Database }) {
  const [page, setPage] = useState(1);
  const backups = useDatabaseBackups(database.id, page);
  const policy = useRetentionPolicy(database.environmentId);
  const create = useCreateBackup(database.id);
  const denial = useActionDenial('database.backup', database.environmentId);
  const [operationId, setOperationId] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: backupKeys.all }),
    [queryClient],
  );
  return (
    <div className="backup-stack">
      <div className="backup-toolbar">
        <ScopedButton
          size="sm"
          denial={denial}
          loading={create.isPending}
          onClick={() => create.mutate(undefined, { onSuccess: (operation) => setOperationId(operation.id) })}
        >
          Create Backup
        </ScopedButton>
      </div>
      {create.isError ? <Banner variant="error">{messageOf(create.error)}</Banner> : null}
      {operationId ? (
        <BackupOperationStatus operationId={operationId} type="backup" onFinished={refresh} />
      ) : null}
      <BackupsTable
        label={`Backups of ${database.handle}`}
        data={backups.data}
        isLoading={backups.isPending}
        error={backups.error}
        page={page}
        onPageChange={setPage}
      />
      <section className="backup-stack" aria-label="Retention policy">
        <h2 className="section-title">Backup Retention Policy</h2>
        {policy.isError ? (
          <Banner variant="error">{`Error: ${policy.error.message}`}</Banner>
        ) : policy.isPending ? null : (
          <RetentionPolicySummary policy={policy.data} />
        )}
        <p>
          <Link to={to.environment(database.environmentId, 'backups')}>Edit the environment's policy</Link>
        </p>
      </section>
    </div>
  );
}
