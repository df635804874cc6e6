import {
  CONTAINER_SIZES_GB,
  clampDiskSize,
  containerProfile,
  cpuShare,
  DISK_LIMITS,
  databaseContainerSize,
  diskProblem,
  scaleProblem,
} from '@berth/core';
import { useId } from 'react';
import { z } from 'zod';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { type ProfileOption, ProfileSizeFields } from '../../../components/ui/profile-size-fields.tsx';
import type { AllowedFamilies } from '../../../resources/stacks/stack.hal.ts';

/** The profiles offered (current generation per family, as on the service scale form). */
const PROFILE_CHOICES = [
  { instanceClass: 'm5', family: 'm', label: 'General Purpose (M)' },
  { instanceClass: 'c5', family: 'c', label: 'CPU Optimized (C)' },
  { instanceClass: 'r5', family: 'r', label: 'Memory Optimized (R)' },
] as const;

export interface DatabaseSize {
  containerSizeMb: number;
  instanceProfile: string;
  diskSizeGb: number;
  provisionedIops: number;
}

export interface DatabaseScaleFormProps {
  /** The engine: Elasticsearch needs at least 1 GB (spec 2 §2). */
  type: string;
  current: DatabaseSize;
  allowed: AllowedFamilies;
  /** Why the caller may not scale (action database.scale), or null. */
  denial: string | null;
  onScale: (size: DatabaseSize) => Promise<unknown>;
}

interface Values {
  instanceProfile: string;
  containerSizeMb: number;
  diskSizeGb: string;
  provisionedIops: string;
}

function wholeNumber(text: string): number {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** The first problem of the values (core's scale and disk rules, spec 2 §5), or null. */
export function databaseScaleProblem(values: Values, current: DatabaseSize): string | null {
  const sizeProblem = scaleProblem({
    instanceClass: values.instanceProfile,
    containerSizeMb: values.containerSizeMb,
  });
  if (sizeProblem) return sizeProblem;
  return diskProblem({
    sizeGb: wholeNumber(values.diskSizeGb),
    iops: wholeNumber(values.provisionedIops),
    currentGb: current.diskSizeGb,
  });
}

function toSize(values: Values): DatabaseSize {
  return {
    containerSizeMb: values.containerSizeMb,
    instanceProfile: values.instanceProfile,
    diskSizeGb: wholeNumber(values.diskSizeGb),
    provisionedIops: wholeNumber(values.provisionedIops),
  };
}

function changedFrom(values: Values, current: DatabaseSize): boolean {
  const size = toSize(values);
  return (
    size.containerSizeMb !== current.containerSizeMb ||
    size.instanceProfile !== current.instanceProfile ||
    size.diskSizeGb !== current.diskSizeGb ||
    size.provisionedIops !== current.provisionedIops
  );
}

/** Sizes (MB) a profile offers for this engine, plus the current one so it never disappears. */
function sizeOptions(type: string, instanceClass: string, keepMb?: number): number[] {
  const profile = containerProfile(instanceClass);
  const sizes: number[] = profile
    ? CONTAINER_SIZES_GB.map((gb) => gb * 1024).filter(
        (mb) => mb >= profile.minimumMb && mb <= profile.maximumMb && databaseContainerSize(type, mb) === mb,
      )
    : [];
  if (keepMb && !sizes.includes(keepMb)) sizes.push(keepMb);
  return sizes.sort((a, b) => a - b);
}

/**
 * spec 2 §2 database Scale tab: profile, memory, disk size (grows only, 10 to 16384 GB, the input
 * clamps on leaving it) and IOPS (at most 16,000, 1 GB of disk per 500 IOPS). Core's rules show while
 * typing and block Save; the server's refusal shows in the form's banner.
 */
export function DatabaseScaleForm({ type, current, allowed, denial, onScale }: DatabaseScaleFormProps) {
  const id = useId();
  const schema = z
    .object({
      instanceProfile: z.string(),
      containerSizeMb: z.number(),
      diskSizeGb: z.string(),
      provisionedIops: z.string(),
    })
    .superRefine((values, ctx) => {
      const problem = databaseScaleProblem(values, current);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['diskSizeGb'] });
    })
    .transform(toSize);
  const form = useSchemaForm(schema, {
    defaultValues: {
      instanceProfile: current.instanceProfile,
      containerSizeMb: current.containerSizeMb,
      diskSizeGb: String(current.diskSizeGb),
      provisionedIops: String(current.provisionedIops),
    },
    blocked: (values) => denial !== null || !changedFrom(values, current),
    onSubmit: onScale,
  });
  const [instanceProfile, containerSizeMb, diskSizeGb, provisionedIops] = form.watch([
    'instanceProfile',
    'containerSizeMb',
    'diskSizeGb',
    'provisionedIops',
  ]);
  const values = { instanceProfile, containerSizeMb, diskSizeGb, provisionedIops };
  const problem = databaseScaleProblem(values, current);
  const changed = changedFrom(values, current);
  const profiles: ProfileOption[] = PROFILE_CHOICES.filter((choice) => allowed[choice.family]).map(
    (choice) => ({
      instanceClass: choice.instanceClass,
      label: `${choice.label} - ${choice.instanceClass}`,
    }),
  );
  if (!profiles.some((option) => option.instanceClass === current.instanceProfile)) {
    profiles.unshift({
      instanceClass: current.instanceProfile,
      label: `Current profile - ${current.instanceProfile}`,
    });
  }
  const sizes = sizeOptions(
    type,
    instanceProfile,
    instanceProfile === current.instanceProfile ? current.containerSizeMb : undefined,
  );
  const share = cpuShare(instanceProfile, containerSizeMb);

  return (
    <Form form={form} className="card card-body form form-card" aria-label="Scale">
      <ProfileSizeFields
        id={id}
        profiles={profiles}
        profile={instanceProfile}
        onProfileChange={(next) => {
          form.setValue('instanceProfile', next);
          // spec 2 §5: a new profile raises the size to its minimum (and keeps it within its maximum).
          const offered = sizeOptions(type, next);
          if (!offered.includes(containerSizeMb)) {
            form.setValue(
              'containerSizeMb',
              offered.find((mb) => mb >= containerSizeMb) ?? offered.at(-1) ?? containerSizeMb,
            );
          }
        }}
        sizes={sizes}
        sizeMb={containerSizeMb}
        onSizeChange={(mb) => form.setValue('containerSizeMb', mb)}
        formatSize={(mb) => `${mb / 1024} GB`}
        share={share}
      />
      <div className="field">
        <label className="field-label" htmlFor={`${id}-disk`}>
          Disk Size (GB)
        </label>
        <input
          id={`${id}-disk`}
          className="input"
          type="number"
          min={Math.max(DISK_LIMITS.minGb, current.diskSizeGb)}
          max={DISK_LIMITS.maxGb}
          step={1}
          {...form.register('diskSizeGb', {
            onBlur: (event: { target: { value: string } }) => {
              const typed = Number(event.target.value);
              if (event.target.value.trim() !== '' && Number.isFinite(typed)) {
                form.setValue('diskSizeGb', String(clampDiskSize(typed)));
              }
            },
          })}
        />
        <p className="field-hint">
          {DISK_LIMITS.minGb} to {DISK_LIMITS.maxGb} GB. A disk can only grow, at most once a day.
        </p>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-iops`}>
          Disk IOPS
        </label>
        <input
          id={`${id}-iops`}
          className="input"
          type="number"
          min={0}
          max={DISK_LIMITS.maxIops}
          step={1}
          {...form.register('provisionedIops')}
        />
        <p className="field-hint">
          At most {DISK_LIMITS.maxIops.toLocaleString('en-US')}, with 1 GB of disk per {DISK_LIMITS.iopsPerGb}{' '}
          IOPS. IOPS above 3000 are billed extra.
        </p>
      </div>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <SubmitRow denial={denial} disabled={!changed || problem !== null}>
        Scale Database
      </SubmitRow>
    </Form>
  );
}
