import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { to } from '../../../lib/paths.ts';
import { useEnvironmentDatabases } from '../../../resources/databases/use-databases.ts';
import { useEnvironmentBackups } from '../api/use-backups.ts';
import { BackupsTable } from './backups-table.tsx';
import { CreateBackup } from './create-backup.tsx';
import { RetentionPolicyPanel } from './retention-policy.tsx';
import './backups.css';

function positiveInt(value: string | null): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 1;
}

/** A manual backup of one of the environment's databases (contract §6 `backup`), followed until it ends. */
function EnvironmentCreateBackup({ environmentId }: { environmentId: string }) {
  const databases = useEnvironmentDatabases(environmentId);
  const provisioned = (databases.data ?? []).filter((database) => database.provisioned);
  const [chosen, setChosen] = useState('');
  const databaseId = chosen || provisioned[0]?.id || '';
  if (provisioned.length === 0) return null;
  return (
    <div className="backup-stack">
      <CreateBackup
        databaseId={databaseId}
        environmentId={environmentId}
        picker={
          <SelectField
            label="Database"
            value={databaseId}
            onChange={(event) => setChosen(event.target.value)}
            options={provisioned.map((database) => ({ value: database.id, label: database.handle }))}
          />
        }
      />
    </div>
  );
}

/**
 * The environment page's Backups tab (spec 2 §2): its backups (or, with `?orphaned=true`, only those of
 * deprovisioned databases), server-paged, and the retention policy in force with its Edit form.
 */
export function EnvironmentBackups({
  environmentId,
  environmentType,
}: {
  environmentId: string;
  environmentType: string;
}) {
  const [params, setParams] = useSearchParams();
  const orphaned = params.get('orphaned') === 'true';
  const page = positiveInt(params.get('page'));
  const backups = useEnvironmentBackups(environmentId, orphaned, page);
  const base = to.environment(environmentId, 'backups');
  const setPage = (next: number) =>
    setParams((current) => {
      const changed = new URLSearchParams(current);
      changed.set('page', String(next));
      return changed;
    });
  return (
    <div className="backup-stack">
      <nav className="backup-toolbar" aria-label="Backup lists">
        <Link to={base} aria-current={orphaned ? undefined : 'page'}>
          All backups
        </Link>
        <Link to={`${base}?orphaned=true`} aria-current={orphaned ? 'page' : undefined}>
          Backups of deprovisioned databases
        </Link>
      </nav>
      {orphaned ? (
        <Banner variant="info">
          These backups outlived their databases. Restore one into a new database, or delete it.
        </Banner>
      ) : (
        <EnvironmentCreateBackup environmentId={environmentId} />
      )}
      <BackupsTable
        label={orphaned ? 'Backups of deprovisioned databases' : 'Backups'}
        data={backups.data}
        isLoading={backups.isPending}
        error={backups.error}
        page={page}
        onPageChange={setPage}
      />
      <RetentionPolicyPanel environmentId={environmentId} environmentType={environmentType} />
    </div>
  );
}
