import {
  BACKUP_RETENTION_DEFAULTS,
  type BackupRetentionPolicyInput,
  backupRetentionPolicySchema,
  MAX_PITR_DAYS,
  type RetentionPolicyValues,
  retentionPolicyWarnings,
} from '@berth/core';
import { type ReactNode, useRef, useState } from 'react';
import type { z } from 'zod';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { InlinePanel } from '../../../components/ui/inline-panel.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useActionDenial } from '../../../lib/use-action-denial.ts';
import { useRetentionPolicy, useSaveRetentionPolicy } from '../api/use-backups.ts';
import './backups.css';

/** spec 2 §9: how much to keep, by the kind of environment. */
export const RETENTION_GUIDANCE = {
  production:
    'Recommended for production: 14-30 daily, 12 monthly and 5 yearly backups, with at least 1 day of point-in-time recovery.',
  nonProduction:
    'Recommended for non-production: 1-14 daily, 0 monthly and 0 yearly backups, with no point-in-time recovery.',
} as const;

export function retentionGuidance(environmentType: string): string {
  return environmentType === 'production' ? RETENTION_GUIDANCE.production : RETENTION_GUIDANCE.nonProduction;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** The policy in force, read only (an environment without one keeps spec 2 §9's defaults). */
export function RetentionPolicySummary({
  policy,
  label = 'Backup retention policy',
}: {
  policy: RetentionPolicyValues | null;
  label?: string;
}) {
  const values = policy ?? BACKUP_RETENTION_DEFAULTS;
  return (
    <DetailList
      label={label}
      items={[
        { label: 'Daily backups', value: String(values.daily) },
        { label: 'Monthly backups', value: String(values.monthly) },
        { label: 'Yearly backups', value: String(values.yearly) },
        { label: 'PITR days', value: String(values.pitrDays) },
        { label: 'Cross-region copy', value: yesNo(values.makeCopy) },
        { label: 'Keep final backup', value: yesNo(values.keepFinal) },
      ]}
    />
  );
}

type PolicyFormInput = z.input<typeof backupRetentionPolicySchema>;

const valuesOf = (input: BackupRetentionPolicyInput): RetentionPolicyValues => ({
  daily: input.daily,
  monthly: input.monthly,
  yearly: input.yearly,
  pitrDays: input.pitr_days,
  makeCopy: input.make_copy,
  keepFinal: input.keep_final,
});

export interface RetentionPolicyFormProps {
  /** The policy in force (the defaults when the environment has none). */
  current: RetentionPolicyValues;
  /** `production` or another type: picks the spec 2 §9 guidance. */
  environmentType: string;
  denial: string | null;
  /** Sends the new policy; a rejection's message shows in the form's banner. */
  onSave: (policy: BackupRetentionPolicyInput) => Promise<unknown>;
  onCancel?: () => void;
}

/**
 * spec 2 §5 backup policy: daily > 0, monthly and yearly >= 0, PITR 0-14 days (whole numbers), with the
 * core schema's messages. A change that loses backups is confirmed after reading the warnings.
 */
export function RetentionPolicyForm({
  current,
  environmentType,
  denial,
  onSave,
  onCancel,
}: RetentionPolicyFormProps) {
  const [pending, setPending] = useState<{ policy: BackupRetentionPolicyInput; warnings: string[] } | null>(
    null,
  );
  const [confirming, setConfirming] = useState(false);
  const form = useSchemaForm<PolicyFormInput, BackupRetentionPolicyInput>(backupRetentionPolicySchema, {
    defaultValues: {
      daily: current.daily,
      monthly: current.monthly,
      yearly: current.yearly,
      pitr_days: current.pitrDays,
      make_copy: current.makeCopy,
      keep_final: current.keepFinal,
    },
    blocked: denial !== null,
    onSubmit: async (policy) => {
      const warnings = retentionPolicyWarnings(current, valuesOf(policy));
      if (warnings.length > 0) {
        setPending({ policy, warnings });
        return;
      }
      await onSave(policy);
    },
  });
  const number = (name: 'daily' | 'monthly' | 'yearly' | 'pitr_days') => {
    const { error, ...binding } = form.field(name);
    return { ...binding, ...form.register(name, { valueAsNumber: true }), error };
  };
  const confirm = async () => {
    if (!pending) return;
    setConfirming(true);
    form.setFailure(null);
    try {
      await onSave(pending.policy);
      setPending(null);
    } catch (error) {
      form.setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setConfirming(false);
    }
  };
  return (
    <Form form={form} title="Edit backup retention policy" aria-label="Backup retention policy">
      <p className="field-hint">{retentionGuidance(environmentType)}</p>
      <div className="retention-fields">
        <TextField label="Daily backups" type="number" min={1} step={1} {...number('daily')} />
        <TextField label="Monthly backups" type="number" min={0} step={1} {...number('monthly')} />
        <TextField label="Yearly backups" type="number" min={0} step={1} {...number('yearly')} />
        <TextField
          label="PITR days"
          type="number"
          min={0}
          max={MAX_PITR_DAYS}
          step={1}
          hint={`Point-in-time recovery window, 0 to ${MAX_PITR_DAYS} days (0 turns it off).`}
          {...number('pitr_days')}
        />
      </div>
      <CheckboxField label="Make a cross-region copy of each backup" {...form.field('make_copy')} />
      <CheckboxField
        label="Keep a final backup when a database is deprovisioned"
        {...form.field('keep_final')}
      />
      {pending ? (
        <Banner
          variant="warning"
          title="Saving this policy has consequences"
          actions={
            <>
              <Button size="sm" variant="danger" loading={confirming} onClick={confirm}>
                Save anyway
              </Button>
              <Button size="sm" variant="ghost" disabled={confirming} onClick={() => setPending(null)}>
                Back
              </Button>
            </>
          }
        >
          <ul>
            {pending.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </Banner>
      ) : (
        <SubmitRow denial={denial} onCancel={onCancel}>
          Save Policy
        </SubmitRow>
      )}
    </Form>
  );
}

/**
 * The environment's retention policy: the one in force, and an Edit form for admins
 * (`backup_retention_policy.create`).
 */
export function RetentionPolicyPanel({
  environmentId,
  environmentType,
  extra,
}: {
  environmentId: string;
  environmentType: string;
  /** Shown beside the Edit button (e.g. a link to the environment's page). */
  extra?: ReactNode;
}) {
  const policy = useRetentionPolicy(environmentId);
  const save = useSaveRetentionPolicy(environmentId);
  const denial = useActionDenial('backup_retention_policy.create', environmentId);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  // Focus goes back to Edit Policy when the form closes (the button is drawn anew).
  const editButton = useRef<HTMLButtonElement>(null);
  return (
    <section className="backup-stack" aria-label="Retention policy">
      <h2 className="section-title">Backup Retention Policy</h2>
      {saved ? <Banner variant="success">The backup retention policy was saved.</Banner> : null}
      <QueryState query={policy} loadingLabel="Loading retention policy">
        {(current) =>
          editing ? (
            <InlinePanel onClose={() => setEditing(false)} returnFocus={() => editButton.current}>
              <RetentionPolicyForm
                current={current ?? BACKUP_RETENTION_DEFAULTS}
                environmentType={environmentType}
                denial={denial}
                onSave={async (next) => {
                  await save.mutateAsync(next);
                  setEditing(false);
                  setSaved(true);
                }}
                onCancel={() => setEditing(false)}
              />
            </InlinePanel>
          ) : (
            <>
              <RetentionPolicySummary policy={current} />
              <div className="backup-toolbar">
                <ScopedButton
                  ref={editButton}
                  size="sm"
                  variant="secondary"
                  denial={denial}
                  onClick={() => {
                    setSaved(false);
                    setEditing(true);
                  }}
                >
                  Edit Policy
                </ScopedButton>
                {extra}
              </div>
            </>
          )
        }
      </QueryState>
    </section>
  );
}
