import {
  type DatabaseCollection,
  databaseMessages,
  isOperationFinished,
  MAX_PAGE_SIZE,
  type OperationResource,
  operationRequest,
  POLL_INTERVAL_MS,
  type RecoveryTargetType,
} from '@berth/core';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, idOf } from '../../../lib/hal.ts';
import { startDatabaseOperation } from './use-database-operation.ts';

export interface PitrRestoreRequest {
  /** The new database's handle. */
  handle: string;
  recoveryTargetType: RecoveryTargetType;
  /** UTC `yyyy-MM-dd HH:mm:ss` when the type is time; absent for latest. */
  recoveryTarget?: string;
}

export interface PitrRestoreOptions {
  /** Between two polls of the operation (spec 2 §4: every 3 s). */
  pollMs?: number;
  signal?: AbortSignal;
  /** Told each step, for the form's progress line. */
  onStep?: (step: string) => void;
}

const wait = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** Polls GET /operations/:id until it ends (the first poll at once); answers its final status. */
async function waitForOperation(id: string, pollMs: number, signal?: AbortSignal): Promise<string> {
  for (;;) {
    const operation = await apiRequest<OperationResource>('api', `/operations/${encodeURIComponent(id)}`, {
      signal,
    });
    if (isOperationFinished(operation.status)) return operation.status;
    await wait(pollMs, signal);
  }
}

/**
 * spec 2 §4 point-in-time restore flow (contract §6): run pitr_restore on the source and wait; if it did
 * not succeed, fail with 'Operation {id} did not succeed'. Then reload the environment's databases, find
 * the new one by its handle and post provision on it with the same recovery keys (server defaults for
 * the sizes). Answers the new database's id.
 */
export async function runPitrRestore(
  source: { id: string; environmentId: string },
  request: PitrRestoreRequest,
  { pollMs = POLL_INTERVAL_MS.operation, signal, onStep }: PitrRestoreOptions = {},
): Promise<string> {
  const recovery =
    request.recoveryTargetType === 'time'
      ? { recovery_target_type: 'time' as const, recovery_target: request.recoveryTarget }
      : { recovery_target_type: 'latest' as const };
  onStep?.('Restoring');
  const restore = await startDatabaseOperation(
    source.id,
    operationRequest('database', 'pitr_restore', { handle: request.handle, ...recovery }),
  );
  const status = await waitForOperation(restore.id, pollMs, signal);
  if (status !== 'succeeded') throw new Error(databaseMessages.operationDidNotSucceed(restore.id));

  onStep?.('Provisioning');
  const list = await apiRequest<DatabaseCollection>(
    'api',
    `/accounts/${encodeURIComponent(source.environmentId)}/databases?per_page=${MAX_PAGE_SIZE}`,
    { signal },
  );
  // The server lower-cases a database handle (spec 2 §5).
  const handle = request.handle.trim().toLowerCase();
  const created = embeddedList(list, 'databases').find((database) => database.handle === handle);
  if (!created) throw new Error(`Database ${handle} was not found after the restore`);
  const id = idOf(created);
  await startDatabaseOperation(id, operationRequest('database', 'provision', recovery));
  return id;
}
