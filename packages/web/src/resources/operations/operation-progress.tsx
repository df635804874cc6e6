import { isOperationFinished, operationStatusLabel } from '@berth/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Banner, type BannerVariant } from '../../components/ui/banner.tsx';
import { to } from '../../lib/paths.ts';
import { useOperation } from './use-operation.ts';

const VARIANTS: Record<string, BannerVariant> = {
  succeeded: 'success',
  failed: 'error',
  running: 'info',
  queued: 'info',
};

export interface OperationProgressProps {
  operationId: string;
  type: string;
  /** Called once when the operation succeeds or fails. */
  onFinished?: (status: string) => void;
}

/**
 * Follows one operation (polled every 3 s until it ends, spec 2 §4) and says where it stands: the progress
 * banner every page that starts an operation shows (deploys, scales, backups, provisions).
 */
export function OperationProgress({ operationId, type, onFinished }: OperationProgressProps) {
  const { data, error } = useOperation(operationId, { deprovision: type === 'deprovision' });
  const status = data?.status ?? 'queued';
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (!isOperationFinished(status) || reported.current === operationId) return;
    reported.current = operationId;
    onFinished?.(status);
  }, [status, operationId, onFinished]);

  if (error) return <Banner variant="error">Error: {error.message}</Banner>;
  return (
    // The status in the spec's one word (QUEUED, RUNNING, DONE, FAILED), as everywhere else (issue 20).
    <Banner
      variant={VARIANTS[status] ?? 'info'}
      title={`Operation ${operationId}: ${type} ${operationStatusLabel(status)}`}
    >
      <Link to={to.operation(operationId)}>View operation</Link>
    </Banner>
  );
}
