import { type DeploymentBadge as Badge, deploymentBadge } from '@berth/core';

const TONES: Record<Badge, string> = {
  Building: 'status-pill status-pill-progress',
  Queued: 'status-pill status-pill-progress',
  Failed: 'status-pill status-pill-error',
  Deployed: 'status-pill status-pill-success',
  'Not deployed': 'status-pill',
};

/** spec 2 §4 deployment badge: Building, Queued, Failed, Deployed or Not deployed. */
export function DeploymentBadge({ status }: { status: string }) {
  const badge = deploymentBadge(status);
  return <span className={TONES[badge]}>{badge}</span>;
}
