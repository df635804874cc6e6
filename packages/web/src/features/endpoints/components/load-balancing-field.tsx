import { LOAD_BALANCING_ALGORITHM_LABELS, LOAD_BALANCING_ALGORITHMS } from '@berth/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '../../../components/ui/form-field.tsx';

/** The Load Balancing Algorithm select of an HTTP endpoint, as the create and settings forms show it. */
export function LoadBalancingField({
  error,
  registration,
}: {
  error?: string;
  registration: UseFormRegisterReturn;
}) {
  return (
    <FormField label="Load Balancing Algorithm" error={error}>
      {(control) => (
        <select className="select" {...control} {...registration}>
          {LOAD_BALANCING_ALGORITHMS.map((algorithm) => (
            <option key={algorithm} value={algorithm}>
              {LOAD_BALANCING_ALGORITHM_LABELS[algorithm]}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}
