import { useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { to } from '../../../lib/paths.ts';
import type { Database } from '../../../resources/databases/database.hal.ts';
import { useDatabaseBackups, useRetentionPolicy } from '../api/use-backups.ts';
import { BackupsTable } from './backups-table.tsx';
import { CreateBackup } from './create-backup.tsx';
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
  return (
    <div className="backup-stack">
      <CreateBackup databaseId={database.id} environmentId={database.environmentId} />
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
