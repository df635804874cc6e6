import {
  type AutoscalingOverride,
  containersMonthlyCost,
  cpuShare,
  formatUsd,
  MAX_CONTAINER_COUNT,
} from '@berth/core';
import { useId } from 'react';
import { z } from 'zod';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { ProfileSizeFields } from '../../../components/ui/profile-size-fields.tsx';
import type { Service } from '../../../resources/services/service.hal.ts';
import type { AllowedFamilies } from '../../../resources/stacks/stack.hal.ts';
import type { ScaleRequest } from '../api/use-scale-service.ts';
import {
  formatGb,
  profileOptions,
  scaleFormProblem,
  sizeForProfile,
  sizeOptionsMb,
} from './scale-options.ts';

/** The count as typed, profile and size, checked by core's scale rules (scaleFormProblem), as a request. */
const scaleForm = z
  .object({ count: z.string(), instanceClass: z.string(), sizeMb: z.number() })
  .superRefine((values, ctx) => {
    const problem = scaleFormProblem(values);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['count'] });
  })
  .transform(
    (values): ScaleRequest => ({
      containerCount: Number(values.count),
      containerSizeMb: values.sizeMb,
      instanceProfile: values.instanceClass,
    }),
  );

export interface ScaleFormProps {
  service: Pick<Service, 'containerCount' | 'containerMemoryMb' | 'instanceClass'>;
  allowed: AllowedFamilies;
  /** Why the caller may not scale (action service.scale), or null. */
  denial: string | null;
  onScale: (request: ScaleRequest) => Promise<unknown>;
  /** What the service's autoscaling policy decides instead of this form (core's autoscalingOverride). */
  override?: AutoscalingOverride | null;
}

/** spec 2 §5 manual scale: container count 0 to 32, profile, size; Save only when something changed. */
export function ScaleForm({ service, allowed, denial, onScale, override = null }: ScaleFormProps) {
  const id = useId();
  const changedFrom = (values: { count: string; instanceClass: string; sizeMb: number }) =>
    values.count.trim() !== String(service.containerCount) ||
    values.instanceClass !== service.instanceClass ||
    values.sizeMb !== service.containerMemoryMb;
  const form = useSchemaForm(scaleForm, {
    defaultValues: {
      count: String(service.containerCount),
      instanceClass: service.instanceClass,
      sizeMb: service.containerMemoryMb,
    },
    blocked: (values) => denial !== null || !changedFrom(values),
    onSubmit: onScale,
  });
  const [count, instanceClass, sizeMb] = form.watch(['count', 'instanceClass', 'sizeMb']);
  // The problem shows while typing (and blocks Save), as the spec's rules are known before sending.
  const problem = scaleFormProblem({ count, instanceClass, sizeMb });
  const changed = changedFrom({ count, instanceClass, sizeMb });
  const sizes = sizeOptionsMb(
    instanceClass,
    instanceClass === service.instanceClass ? service.containerMemoryMb : undefined,
  );
  const share = cpuShare(instanceClass, sizeMb);
  const countValue = Number(count);

  return (
    <Form form={form} className="card card-body form form-card" aria-label="Scale">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-count`}>
          Number of Containers
        </label>
        <input
          id={`${id}-count`}
          className="input"
          type="number"
          min={0}
          max={MAX_CONTAINER_COUNT}
          step={1}
          aria-invalid={problem?.startsWith('Container count') || undefined}
          aria-describedby={[`${id}-count-hint`, override?.field === 'count' ? `${id}-override` : null]
            .filter(Boolean)
            .join(' ')}
          {...form.register('count')}
        />
        <p className="field-hint" id={`${id}-count-hint`}>
          {Number.isInteger(countValue) && countValue >= 2
            ? 'High Availability: containers run on separate hosts.'
            : `0 to ${MAX_CONTAINER_COUNT}. Two or more give High Availability.`}
        </p>
        {override?.field === 'count' ? (
          <p className="field-hint" id={`${id}-override`}>
            {override.message}
          </p>
        ) : null}
      </div>
      <ProfileSizeFields
        id={id}
        profiles={profileOptions(allowed, service.instanceClass)}
        profile={instanceClass}
        onProfileChange={(next) => {
          form.setValue('instanceClass', next);
          form.setValue('sizeMb', sizeForProfile(next, sizeMb));
        }}
        sizes={sizes}
        sizeMb={sizeMb}
        onSizeChange={(mb) => form.setValue('sizeMb', mb)}
        formatSize={formatGb}
        share={share}
      />
      {override?.field === 'size' ? <p className="field-hint">{override.message}</p> : null}
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : (
        // Issue 20: the price of a change before it is saved (containers only; endpoints and disks apart).
        <p className="field-hint" aria-live="polite">
          Containers:{' '}
          {formatUsd(
            containersMonthlyCost({
              containerCount: service.containerCount,
              containerMemoryMb: service.containerMemoryMb,
              instanceClass: service.instanceClass,
            }),
          )}{' '}
          a month now
          {changed
            ? `, ${formatUsd(containersMonthlyCost({ containerCount: countValue, containerMemoryMb: sizeMb, instanceClass }))} a month after this change`
            : ''}
          .
        </p>
      )}
      <SubmitRow denial={denial} disabled={!changed || problem !== null}>
        Save Changes
      </SubmitRow>
    </Form>
  );
}
