import { operationTypeEntry } from './operation-types.ts';

// spec 2 §4 and spec 3 §4: operation statuses, their labels, the aggregate rule, the resource banner
// and the Re-run rule, written once for every operation screen.

export const OPERATION_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type OperationStatus = (typeof OPERATION_STATUSES)[number];
/** Anything the server sends outside the four known values reads as unknown. */
export type KnownOperationStatus = OperationStatus | 'unknown';

export const OPERATION_STATUS_LABELS: Record<KnownOperationStatus, string> = {
  queued: 'QUEUED',
  running: 'RUNNING',
  succeeded: 'DONE',
  failed: 'FAILED',
  unknown: 'UNKNOWN',
};

export function operationStatusOf(status: string | null | undefined): KnownOperationStatus {
  return (OPERATION_STATUSES as readonly string[]).includes(status ?? '')
    ? (status as OperationStatus)
    : 'unknown';
}

export function operationStatusLabel(status: string | null | undefined): string {
  return OPERATION_STATUS_LABELS[operationStatusOf(status)];
}

/** spec 2 §4: a single operation is polled until it is succeeded or failed. */
export function isOperationFinished(status: string | null | undefined): boolean {
  const known = operationStatusOf(status);
  return known === 'succeeded' || known === 'failed';
}

/** Queued or running: the rows that show elapsed time and the pages that show a spinner. */
export function isOperationPending(status: string | null | undefined): boolean {
  const known = operationStatusOf(status);
  return known === 'queued' || known === 'running';
}

export interface OperationLike {
  type: string;
  status: string;
  /** ISO-8601 (contract §1.8), compared as time. */
  updatedAt: string;
}

/**
 * spec 2 §4: the aggregate of several operations is the first queued, running or failed one by updated
 * time (newest first, as the lists are sorted), succeeded if all succeeded, otherwise unknown. An empty
 * set has nothing that succeeded, so it is unknown.
 */
export function aggregateOperationStatus(operations: readonly OperationLike[]): KnownOperationStatus {
  if (operations.length === 0) return 'unknown';
  const newestFirst = [...operations].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
  const open = newestFirst.find((operation) => {
    const status = operationStatusOf(operation.status);
    return status === 'queued' || status === 'running' || status === 'failed';
  });
  if (open) return operationStatusOf(open.status);
  return operations.every((operation) => operation.status === 'succeeded') ? 'succeeded' : 'unknown';
}

/** spec 2 §4 resource banner: the operation types a resource banner may show. */
export const BANNER_OPERATION_TYPES = [
  'configure',
  'configure_backup_policy',
  'deploy',
  'provision',
  'restart',
  'scale',
] as const;

/** spec 2 §4: those types when failed, running or queued; deprovision also when succeeded. */
export function showsResourceBanner(operation: Pick<OperationLike, 'type' | 'status'>): boolean {
  const status = operationStatusOf(operation.status);
  if (operation.type === 'deprovision') return status !== 'unknown';
  return (
    (BANNER_OPERATION_TYPES as readonly string[]).includes(operation.type) &&
    (status === 'failed' || status === 'running' || status === 'queued')
  );
}

export type BannerTone = 'success' | 'error' | 'progress';

/** spec 2 §4 banner colours: succeeded success, failed error, running and queued progress. */
export function bannerTone(status: string): BannerTone | null {
  switch (operationStatusOf(status)) {
    case 'succeeded':
      return 'success';
    case 'failed':
      return 'error';
    case 'queued':
    case 'running':
      return 'progress';
    case 'unknown':
      return null;
  }
}

/** The latest operation a resource banner shows, if any (operations in any order). */
export function bannerOperation<T extends OperationLike>(operations: readonly T[]): T | null {
  let latest: T | null = null;
  for (const operation of operations) {
    if (!latest || Date.parse(operation.updatedAt) > Date.parse(latest.updatedAt)) latest = operation;
  }
  return latest && showsResourceBanner(latest) ? latest : null;
}

/**
 * spec 3 §2 Activity (spec 2 §4): a failed row has Re-run; a succeeded row shows Re-run only for app
 * deploy and configure operations. Only operations whose request the row can rebuild are offered
 * (contract §6): those of the catalog, unless their flow asks for a confirmation first.
 */
export function canRerunOperation(operation: {
  type: string;
  status: string;
  resourceType: string;
}): boolean {
  const status = operationStatusOf(operation.status);
  switch (operationTypeEntry(operation.resourceType, operation.type)?.rerun) {
    case 'always':
      return status === 'failed' || status === 'succeeded';
    case 'failed':
      return status === 'failed';
    case 'never':
    case undefined:
      return false;
  }
}
