import { bannerOperation, bannerTone, operationStatusLabel } from '@berth/core';
import { Link } from 'react-router';
import { Banner, type BannerVariant } from '../../../components/ui/banner.tsx';
import { to } from '../../../lib/paths.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';

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
    </Banner>
  );
}
