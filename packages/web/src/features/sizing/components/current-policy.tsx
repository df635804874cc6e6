import { fractionToPercent } from '@berth/core';
import type { DetailItem } from '../../../components/ui/detail-list.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import type { SizingPolicy } from '../../../resources/sizing/sizing.hal.ts';

/** A stored threshold (0.9) as the form types it (90 %). */
const percent = (fraction: number | null) => (fraction === null ? '–' : `${fractionToPercent(fraction)} %`);

/** spec 2 §4: the service's policy in force, shown beside the autoscaling form. */
export function CurrentPolicy({ policy }: { policy: SizingPolicy | null }) {
  if (!policy) {
    return (
      <section className="card card-body" aria-label="Current policy">
        <h2 className="section-title">Current Policy</h2>
        <p className="muted">No policy: this service keeps the size and count it is given.</p>
      </section>
    );
  }
  const f = policy.fields;
  const items: DetailItem[] = [
    {
      label: 'Autoscaling',
      value: f.scaling_enabled ? (f.autoscaling === 'horizontal' ? 'Horizontal' : 'Vertical') : 'Disabled',
    },
  ];
  if (f.autoscaling === 'horizontal') {
    items.push(
      { label: 'Containers', value: `${f.min_containers ?? '–'} to ${f.max_containers ?? '–'}` },
      {
        label: 'CPU thresholds',
        value: `${percent(f.min_cpu_threshold)} down, ${percent(f.max_cpu_threshold)} up`,
      },
      { label: 'Steps', value: `${f.scale_up_step} up, ${f.scale_down_step} down` },
    );
  } else {
    items.push(
      {
        label: 'Memory thresholds',
        value: `${percent(f.mem_scale_down_threshold)} down, ${percent(f.mem_scale_up_threshold)} up`,
      },
      {
        label: 'Memory',
        value: `${f.minimum_memory} MB to ${f.maximum_memory === null ? 'the profile maximum' : `${f.maximum_memory} MB`}`,
      },
      { label: 'Ratios (R, C)', value: `${f.mem_cpu_ratio_r_threshold}, ${f.mem_cpu_ratio_c_threshold}` },
    );
  }
  items.push(
    { label: 'Lookback', value: `${f.metric_lookback_seconds} s at p${f.percentile}` },
    {
      label: 'Cooldowns',
      value: `${f.post_scale_up_cooldown_seconds} s after up, ${f.post_scale_down_cooldown_seconds} s after down, ${f.post_release_cooldown_seconds} s after release`,
    },
    { label: 'Updated', value: formatDateTime(policy.updatedAt) },
  );
  return (
    <section aria-label="Current policy">
      <h2 className="section-title">Current Policy</h2>
      <DetailList label="Current policy details" items={items} />
    </section>
  );
}
