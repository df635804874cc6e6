import {
  COST_RATES,
  clampDiskSize,
  DATABASE_DEFAULTS,
  DISK_LIMITS,
  databaseContainerSize,
  databaseHandleSchema,
  databaseMessages,
  ELASTICSEARCH_MIN_CONTAINER_MB,
  formatUsd,
  newDatabaseImage,
  newDatabaseMonthlyCost,
  suggestDatabaseHandle,
} from '@berth/core';
import { useState } from 'react';
import { z } from 'zod';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { DatabaseImage } from '../../../resources/databases/database.hal.ts';

/** spec 2 §9: the M-class container sizes (GB), the default profile a database is provisioned on. */
const CONTAINER_SIZES_GB = [0.5, 1, 2, 4, 7, 15, 30, 60, 150, 240] as const;

/** The sizes offered for an engine: Elasticsearch starts at 1024 MB (spec 2 §2). */
export function containerSizeOptionsMb(type: string): number[] {
  return CONTAINER_SIZES_GB.map((gb) => gb * 1024).filter(
    (mb) => type !== 'elasticsearch' || mb >= ELASTICSEARCH_MIN_CONTAINER_MB,
  );
}

const createDatabaseForm = z.object({
  imageId: z.string().min(1, databaseMessages.imageRequired),
  handle: databaseHandleSchema,
  containerSizeMb: z.number(),
  // spec 2 §5: the disk input clamps to 10-16384 GB; an empty one is the minimum.
  diskSizeGb: z
    .number()
    .or(z.nan())
    .transform((value) => clampDiskSize(value)),
  enableBackups: z.boolean(),
});
type CreateDatabaseFormInput = z.input<typeof createDatabaseForm>;

export interface CreateDatabaseValues {
  image: DatabaseImage;
  /** Lower-cased (spec 2 §5). */
  handle: string;
  containerSizeMb: number;
  diskSizeGb: number;
  enableBackups: boolean;
}

export interface CreateDatabaseFormProps {
  environmentHandle: string;
  /** The catalog; only visible images are offered (contract §4.3). */
  images: readonly DatabaseImage[];
  /** Why the caller may not create a database (action database.create), or null. */
  denial: string | null;
  onSubmit: (values: CreateDatabaseValues) => Promise<unknown>;
  /** Randomness of the suggested handle (tests pin it). */
  random?: () => number;
}

/**
 * spec 2 §2 and spec 3 §2 "Create database": engine and version, a suggested handle (environment handle,
 * 5 random characters, type; suggested again when the type changes until the handle is edited),
 * container size (1024 MB by default, Elasticsearch at least 1024), disk size (10 GB by default, clamped
 * to 10-16384) and backups (on by default). It starts on PostgreSQL's newest version and shows the
 * estimated monthly cost of what is chosen (issue 41).
 */
export function CreateDatabaseForm({
  environmentHandle,
  images,
  denial,
  onSubmit,
  random,
}: CreateDatabaseFormProps) {
  const offered = images.filter((image) => image.visible);
  // Issue 41: PostgreSQL's newest version, not the first engine the catalog flags as its default.
  const first = newDatabaseImage(offered);
  const [handleEdited, setHandleEdited] = useState(false);
  const form = useSchemaForm(createDatabaseForm, {
    defaultValues: {
      imageId: first?.id ?? '',
      handle: first ? suggestDatabaseHandle(environmentHandle, first.type, random) : '',
      containerSizeMb: databaseContainerSize(first?.type ?? '', DATABASE_DEFAULTS.containerSizeMb),
      diskSizeGb: DATABASE_DEFAULTS.diskSizeGb,
      enableBackups: true,
    } satisfies CreateDatabaseFormInput,
    blocked: denial !== null,
    onSubmit: (values) => {
      const image = offered.find((item) => item.id === values.imageId);
      if (!image) throw new Error(databaseMessages.imageUnknown);
      return onSubmit({
        image,
        handle: values.handle,
        containerSizeMb: databaseContainerSize(image.type, values.containerSizeMb),
        diskSizeGb: values.diskSizeGb,
        enableBackups: values.enableBackups,
      });
    },
  });
  const imageId = form.watch('imageId');
  const type = offered.find((image) => image.id === imageId)?.type ?? '';
  const imageField = form.register('imageId');
  const handleField = form.field('handle');
  const diskField = form.register('diskSizeGb', { valueAsNumber: true });
  const monthly = newDatabaseMonthlyCost({
    containerSizeMb: databaseContainerSize(type, Number(form.watch('containerSizeMb'))),
    diskSizeGb: clampDiskSize(Number(form.watch('diskSizeGb'))),
  });

  return (
    <Form form={form} aria-label="Create database">
      <TextField label="Environment" value={environmentHandle} readOnly />
      <SelectField
        label="Database Type"
        options={offered.map((image) => ({ value: image.id, label: image.description }))}
        placeholder={offered.length === 0 ? 'No database types offered' : undefined}
        error={form.formState.errors.imageId?.message}
        {...imageField}
        onChange={async (event) => {
          await imageField.onChange(event);
          const next = offered.find((image) => image.id === event.target.value);
          if (!next) return;
          if (!handleEdited) {
            form.setValue('handle', suggestDatabaseHandle(environmentHandle, next.type, random));
          }
          // spec 2 §2: Elasticsearch forces at least 1024 MB.
          form.setValue(
            'containerSizeMb',
            databaseContainerSize(next.type, form.getValues('containerSizeMb')),
          );
        }}
      />
      <TextField
        label="Handle"
        autoComplete="off"
        spellCheck={false}
        hint="Lowercase letters, digits, periods, hyphens and underscores."
        {...handleField}
        onChange={async (event) => {
          setHandleEdited(true);
          await handleField.onChange(event);
        }}
      />
      <SelectField
        label="Container Size"
        options={containerSizeOptionsMb(type).map((mb) => ({ value: String(mb), label: `${mb / 1024} GB` }))}
        hint={type === 'elasticsearch' ? databaseMessages.elasticsearchMemory : undefined}
        {...form.register('containerSizeMb', { valueAsNumber: true })}
      />
      <TextField
        label="Disk Size (GB)"
        type="number"
        min={DISK_LIMITS.minGb}
        max={DISK_LIMITS.maxGb}
        step={1}
        hint={`${DISK_LIMITS.minGb} to ${DISK_LIMITS.maxGb} GB.`}
        error={form.formState.errors.diskSizeGb?.message}
        {...diskField}
        onBlur={async (event) => {
          await diskField.onBlur(event);
          form.setValue('diskSizeGb', clampDiskSize(Number(event.target.value)));
        }}
      />
      <CheckboxField label="Enable backups" {...form.register('enableBackups')} />
      {/* Issue 41: the price before creating, as the costs lists will show it; polite so it is read on change. */}
      <p className="field-hint" aria-live="polite">
        Estimated monthly cost: <strong>{formatUsd(monthly)}</strong> for its container and disk
        {form.watch('enableBackups')
          ? `, plus ${formatUsd(COST_RATES.backupCostGbPerMonth)} a month per GB of backups`
          : ''}
        .
      </p>
      <SubmitRow size="lg" block denial={denial} disabled={offered.length === 0}>
        Create Database
      </SubmitRow>
    </Form>
  );
}
