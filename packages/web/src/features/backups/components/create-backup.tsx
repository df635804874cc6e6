import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useState } from 'react';
import { FailureBanner } from '../../../components/ui/failure-banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { backupKeys } from '../../../resources/backups/backup-keys.ts';
import { OperationProgress } from '../../../resources/operations/operation-progress.tsx';
import { useCreateBackup } from '../api/use-backups.ts';

/**
 * Create Backup (a manual `backup` operation of the database, contract §6) in the backups toolbar after
 * `picker`, its error, and the operation followed until it ends, when the backup lists are refreshed.
 */
export function CreateBackup({
  databaseId,
  environmentId,
  picker,
}: {
  databaseId: string;
  environmentId: string;
  picker?: ReactNode;
}) {
  const create = useCreateBackup(databaseId);
  const denial = useActionDenial('database.backup', environmentId);
  const [operationId, setOperationId] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: backupKeys.all }),
    [queryClient],
  );
  return (
    <>
      <div className="backup-toolbar">
        {picker}
        <ScopedButton
          size="sm"
          denial={denial}
          loading={create.isPending}
          onClick={() => create.mutate(undefined, { onSuccess: (operation) => setOperationId(operation.id) })}
        >
          Create Backup
        </ScopedButton>
      </div>
      {create.isError ? <FailureBanner error={create.error} /> : null}
      {operationId ? (
        <OperationProgress operationId={operationId} type="backup" onFinished={refresh} />
      ) : null}
    </>
  );
}
