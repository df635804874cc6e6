import {
  CONTAINER_SIZES_GB,
  DATABASE_DEFAULTS,
  DISK_LIMITS,
  databaseHandleSchema,
  databaseMessages,
  restoreHandle,
} from '@berth/core';
import { z } from 'zod';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { Backup } from '../../../resources/backups/backup.hal.ts';
import type { RestoreRequest } from '../api/use-backups.ts';

/** Where a restore may go: an environment the caller may create databases in. */
export interface RestoreDestination {
  id: string;
  handle: string;
}

const MB_PER_GB = 1024;

/** spec 2 §9: M-class sizes (the default m5 profile), in MB. */
const CONTAINER_SIZE_OPTIONS = CONTAINER_SIZES_GB.filter((gb) => gb <= 240).map((gb) => ({
  value: String(gb * MB_PER_GB),
  label: gb < 1 ? `${gb * MB_PER_GB} MB` : `${gb} GB`,
}));

/** The smallest disk a backup fits on: 10 GB, or its size rounded up. */
export function minimumRestoreDisk(backup: Backup): number {
  return Math.max(DISK_LIMITS.minGb, Math.ceil(backup.sizeGb));
}

export const diskTooSmallFor = (min: number) => `Disk size must be at least ${min} GB`;

function restoreSchema(minDiskGb: number) {
  return z.object({
    handle: databaseHandleSchema,
    destination_account_id: z
      .string({ error: databaseMessages.restoreEnvironmentRequired })
      .min(1, databaseMessages.restoreEnvironmentRequired),
    disk_size: z
      .number({ error: diskTooSmallFor(minDiskGb) })
      .int({ error: diskTooSmallFor(minDiskGb) })
      .min(minDiskGb, { error: diskTooSmallFor(minDiskGb) })
      .max(DISK_LIMITS.maxGb, { error: databaseMessages.diskTooLarge }),
    containerSize: z.coerce.number<string>().int().positive(),
  });
}

type RestoreSchema = ReturnType<typeof restoreSchema>;

export interface RestoreBackupFormProps {
  backup: Backup;
  /** The environments the caller may create databases in. */
  destinations: readonly RestoreDestination[];
  /** Sends the restore; a rejection's message shows in the form's banner. */
  onRestore: (request: RestoreRequest) => Promise<unknown>;
  denial?: string | null;
}

/**
 * spec 2 §2 restore form: the new database's handle (the database handle, `-at-` and the backup's time,
 * cut to 64), the environment it goes into (the backup's by default), its disk (10 GB by default, at least
 * the backup's size) and container size (1024 MB by default).
 */
export function RestoreBackupForm({
  backup,
  destinations,
  onRestore,
  denial = null,
}: RestoreBackupFormProps) {
  const minDisk = minimumRestoreDisk(backup);
  const defaultDestination = destinations.some((environment) => environment.id === backup.environmentId)
    ? backup.environmentId
    : (destinations[0]?.id ?? '');
  const form = useSchemaForm<z.input<RestoreSchema>, z.output<RestoreSchema>>(restoreSchema(minDisk), {
    defaultValues: {
      handle: restoreHandle(backup.databaseHandle, new Date(backup.createdAt)),
      destination_account_id: defaultDestination,
      disk_size: Math.max(DATABASE_DEFAULTS.diskSizeGb, minDisk),
      containerSize: String(DATABASE_DEFAULTS.containerSizeMb),
    },
    blocked: denial !== null,
    onSubmit: (values) =>
      onRestore({
        type: 'restore',
        handle: values.handle,
        destination_account_id: values.destination_account_id,
        disk_size: values.disk_size,
        containerSize: values.containerSize,
      }),
  });
  const disk = form.field('disk_size');
  return (
    <Form form={form} aria-label="Restore backup">
      <TextField label="Handle" autoComplete="off" {...form.field('handle')} />
      <SelectField
        label="Environment"
        placeholder={destinations.length === 0 ? 'No environment you may create databases in' : undefined}
        options={destinations.map((environment) => ({ value: environment.id, label: environment.handle }))}
        {...form.field('destination_account_id')}
      />
      <TextField
        label="Disk Size (GB)"
        type="number"
        min={minDisk}
        max={DISK_LIMITS.maxGb}
        step={1}
        {...disk}
        {...form.register('disk_size', { valueAsNumber: true })}
        error={disk.error}
      />
      <SelectField label="Container Size" options={CONTAINER_SIZE_OPTIONS} {...form.field('containerSize')} />
      <SubmitRow denial={denial}>Restore</SubmitRow>
    </Form>
  );
}
