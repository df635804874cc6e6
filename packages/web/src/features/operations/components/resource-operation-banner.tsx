import { bannerOperation, bannerTone, operationStatusLabel } from '@berth/core';
import { Link } from 'react-router';
import { Banner, type BannerVariant } from '../../../components/ui/banner.tsx';
import { to } from '../../../lib/paths.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { useOperationLogs } from '../api/use-operation-logs.ts';
import './operations.css';

const VARIANTS: Record<'success' | 'error' | 'progress', BannerVariant> = {
  success: 'success',
  error: 'error',
  progress: 'info',
};

/**
 * spec 2 §4 resource banner: the latest operation of a resource, for configure, configure_backup_policy,
 * deploy, provision, restart and scale when failed, running or queued, and deprovision also when
 * succeeded. Colours: succeeded success, failed error, running and queued progress.
 */
export function ResourceOperationBanner({ operations }: { operations: readonly Operation[] }) {
  const operation = bannerOperation(operations);
  if (!operation) return null;
  const tone = bannerTone(operation.status);
  if (!tone) return null;
  return (
    <Banner
      variant={VARIANTS[tone]}
      title={`${operation.type} ${operationStatusLabel(operation.status)}`}
      actions={<Link to={to.operation(operation.id)}>View operation</Link>}
    >
      {operation.userName ? `Started by ${operation.userName}. ` : ''}
      {operation.note}
      {operation.status === 'failed' ? <FailingLine operationId={operation.id} /> : null}
    </Banner>
  );
}

/** The line a failed operation's log says why in: its last ERROR line, else its last line. */
export function failingLine(text: string): string | null {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return [...lines].reverse().find((line) => line.includes('ERROR')) ?? lines.at(-1) ?? null;
}

/** Issue 20: a failure banner quotes the line that says why, so the reason is one glance away. */
function FailingLine({ operationId }: { operationId: string }) {
  const logs = useOperationLogs(operationId, 'failed');
  const line = logs.data ? failingLine(logs.data) : null;
  return line ? (
    <code className="failing-line" title="The log line that says why">
      {line.length > 300 ? `${line.slice(0, 300)}…` : line}
    </code>
  ) : null;
}
