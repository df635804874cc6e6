import type { ScalingLabel } from '@berth/core';
import './scaling-rec.css';

/** spec 2 §4: a service's Scaling Recommendations label (Autoscaling, Right Sized, Scale Up, Scale Down). */
export function ScalingRec({ label }: { label: ScalingLabel }) {
  return (
    <span className={`scaling-rec scaling-rec-${label.kind}`}>
      {label.text}
      {label.kind === 'scale_down' ? <span className="scaling-rec-detail"> ({label.detail})</span> : null}
    </span>
  );
}
