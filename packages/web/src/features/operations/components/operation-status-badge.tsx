import { bannerTone, operationStatusLabel } from '@berth/core';
import './operations.css';

/** spec 3 §4: QUEUED, RUNNING, DONE, FAILED or UNKNOWN, coloured like the banners. */
export function OperationStatusBadge({ status }: { status: string }) {
  const tone = bannerTone(status);
  return (
    <span className={`status-pill${tone ? ` status-pill-${tone}` : ''}`}>{operationStatusLabel(status)}</span>
  );
}
