import { LOAD_BALANCING_ALGORITHM_LABELS, LOAD_BALANCING_ALGORITHMS } from '@berth/core';
import type { FieldBinding } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';

const OPTIONS = LOAD_BALANCING_ALGORITHMS.map((algorithm) => ({
  value: algorithm,
  label: LOAD_BALANCING_ALGORITHM_LABELS[algorithm],
}));

/** The Load Balancing Algorithm select of an HTTP endpoint, as the create and settings forms show it. */
export function LoadBalancingField(binding: FieldBinding<string>) {
  return <SelectField label="Load Balancing Algorithm" options={OPTIONS} {...binding} />;
}
