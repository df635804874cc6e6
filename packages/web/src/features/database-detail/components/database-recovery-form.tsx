import {
  databaseHandleSchema,
  databaseMessages,
  formatUtcTimestamp,
  parsePitrTarget,
  RECOVERY_TARGET_TYPES,
  type RecoveryTargetType,
} from '@berth/core';
import { useState } from 'react';
import { z } from 'zod';
import { Banner } from '../../../components/ui/banner.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { PitrRestoreRequest } from '../api/pitr-restore.ts';

const TARGET_LABELS: Record<RecoveryTargetType, string> = {
  latest: 'Latest (the most recent point)',
  time: 'A point in time (UTC)',
};

const recoverySchema = z
  .object({
    handle: databaseHandleSchema,
    recoveryTargetType: z.enum(RECOVERY_TARGET_TYPES),
    recoveryTarget: z.string(),
  })
  .superRefine((values, ctx) => {
    if (values.recoveryTargetType !== 'time') return;
    const target = values.recoveryTarget.trim();
    if (!target) {
      ctx.addIssue({
        code: 'custom',
        message: databaseMessages.pitrTargetRequired,
        path: ['recoveryTarget'],
      });
    } else if (!parsePitrTarget(target)) {
      // spec 2 §5: UTC, yyyy-MM-dd HH:mm:ss.
      ctx.addIssue({ code: 'custom', message: databaseMessages.pitrTargetFormat, path: ['recoveryTarget'] });
    }
  })
  .transform(
    (values): PitrRestoreRequest =>
      values.recoveryTargetType === 'time'
        ? { handle: values.handle, recoveryTargetType: 'time', recoveryTarget: values.recoveryTarget.trim() }
        : { handle: values.handle, recoveryTargetType: 'latest' },
  );

export interface DatabaseRecoveryFormProps {
  handle: string;
  /** PITR backups are on for the database (the server refuses a restore otherwise). */
  pitrEnabled: boolean;
  /** Why the caller may not restore (action database.pitr_restore), or null. */
  denial: string | null;
  /** Runs the two-step restore (spec 2 §4) and goes to the new database; its message shows on failure. */
  onRestore: (request: PitrRestoreRequest, onStep: (step: string) => void) => Promise<unknown>;
  now?: () => Date;
}

/**
 * spec 2 §2 Recovery tab: point-in-time recovery into a new database, to the latest point or to a UTC
 * time written yyyy-MM-dd HH:mm:ss (spec 2 §5).
 */
export function DatabaseRecoveryForm({
  handle,
  pitrEnabled,
  denial,
  onRestore,
  now = () => new Date(),
}: DatabaseRecoveryFormProps) {
  const [step, setStep] = useState<string | null>(null);
  const form = useSchemaForm(recoverySchema, {
    defaultValues: {
      handle: `${handle}-pitr`.slice(0, 64),
      recoveryTargetType: 'latest',
      recoveryTarget: formatUtcTimestamp(now()),
    },
    blocked: denial !== null || !pitrEnabled,
    onSubmit: async (request) => {
      try {
        await onRestore(request, setStep);
      } finally {
        setStep(null);
      }
    },
  });
  const type = form.watch('recoveryTargetType');
  return (
    <Form
      form={form}
      className="card card-body form form-card"
      aria-label="Point-in-time Recovery"
      title="Point-in-time Recovery"
    >
      {pitrEnabled ? (
        <p className="field-hint">
          Restores this database's data into a new database, then provisions it. The source is left as it is.
        </p>
      ) : (
        <Banner variant="warning">
          {databaseMessages.pitrDisabled}. Turn on point-in-time recovery backups in Settings first.
        </Banner>
      )}
      <TextField
        label="New Database Handle"
        autoComplete="off"
        spellCheck={false}
        {...form.field('handle')}
      />
      <SelectField
        label="Recover To"
        options={RECOVERY_TARGET_TYPES.map((value) => ({ value, label: TARGET_LABELS[value] }))}
        {...form.field('recoveryTargetType')}
      />
      {type === 'time' ? (
        <TextField
          label="Target Time (UTC)"
          hint="yyyy-MM-dd HH:mm:ss, in UTC"
          autoComplete="off"
          spellCheck={false}
          placeholder="2026-01-31 23:59:59"
          {...form.field('recoveryTarget')}
        />
      ) : null}
      {step ? (
        <p className="field-hint" role="status">
          {step}…
        </p>
      ) : null}
      <SubmitRow denial={denial} disabled={!pitrEnabled}>
        Restore to New Database
      </SubmitRow>
    </Form>
  );
}
