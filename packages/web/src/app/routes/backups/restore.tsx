import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { useBackup, useRestoreBackup } from '../../../features/backups/api/use-backups.ts';
import { RestoreBackupForm } from '../../../features/backups/components/restore-backup-form.tsx';
import { to } from '../../../lib/paths.ts';
import { useActionDenials } from '../../../lib/use-action-denial.ts';
import type { Backup } from '../../../resources/backups/backup.hal.ts';
import { useConsoleContext } from '../../shell/use-console.ts';

function RestorePage({ backup }: { backup: Backup }) {
  const { environments } = useConsoleContext();
  const denialOf = useActionDenials();
  const navigate = useNavigate();
  const restore = useRestoreBackup(backup.id);
  // spec 2 §2: the new database goes into an environment where the caller may create databases.
  const destinations = environments.filter(
    (environment) => denialOf('database.create', environment.id) === null,
  );
  return (
    <>
      <PageHeader
        title={`Restore backup ${backup.id}`}
        description={`A new database from the ${backup.label.toLowerCase()} backup of ${backup.databaseHandle}.`}
      />
      <RestoreBackupForm
        backup={backup}
        destinations={destinations}
        denial={denialOf('backup.restore', backup.environmentId)}
        onRestore={async (request) => {
          const operation = await restore.mutateAsync(request);
          // spec 2 §4: an operation flow ends on the operation's page, which follows it.
          navigate(to.operation(operation.id));
        }}
      />
    </>
  );
}

/** spec 2 §2 /backups/{id}/restore: restore a backup into a new database. */
function RestoreBackupRoute() {
  const { id = '' } = useParams();
  const backup = useBackup(id);
  return (
    <QueryState
      query={backup}
      loadingLabel="Loading backup"
      errorHeader={<PageHeader title="Restore backup" />}
    >
      {(data) => <RestorePage backup={data} />}
    </QueryState>
  );
}

export { RestoreBackupRoute as Component };
