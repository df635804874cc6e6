import { isOperationFinished } from '@berth/core';
import { useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { Banner, type BannerVariant } from '../../../components/ui/banner.tsx';
import { to } from '../../../lib/paths.ts';
import { useOperation } from '../../../resources/operations/use-operation.ts';

const VARIANTS: Record<string, BannerVariant> = {
  succeeded: 'success',
  failed: 'error',
  running: 'info',
  queued: 'info',
};

/** Follows a backup operation (polled until it ends, spec 2 §4) and says where it stands. */
export function BackupOperationStatus({
  operationId,
  type,
  onFinished,
}: {
  operationId: string;
  type: string;
  onFinished?: (status: string) => void;
}) {
  const { data, error } = useOperation(operationId);
  const status = data?.status ?? 'queued';
  const reported = useRef<string | null>(null);
  useEffect(() => {
    if (!isOperationFinished(status) || reported.current === operationId) return;
    reported.current = operationId;
    onFinished?.(status);
  }, [status, operationId, onFinished]);
  if (error) return <Banner variant="error">Error: {error.message}</Banner>;
  return (
    <Banner variant={VARIANTS[status] ?? 'info'} title={`Operation ${operationId}: ${type} ${status}`}>
      <Link to={to.operation(operationId)}>View operation</Link>
    </Banner>
  );
}
