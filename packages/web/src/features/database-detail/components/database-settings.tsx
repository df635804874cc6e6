import { databaseHandleSchema, databaseMessages } from '@berth/core';
import { useId, useState } from 'react';
import { z } from 'zod';
import { Banner } from '../../../components/ui/banner.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { ScopedCheckbox } from '../../../components/ui/scoped-checkbox.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { TypedConfirmation } from '../../../components/ui/typed-confirmation.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import type { Database } from '../../../resources/databases/database.hal.ts';

/** Why the caller may not take each settings action (useActionDenial), or null. */
export interface DatabaseSettingsDenials {
  rename: string | null;
  backups: string | null;
  unlink: string | null;
  restart: string | null;
  restartRecreate: string | null;
  deprovision: string | null;
}

export interface DatabaseSettingsProps {
  database: Pick<Database, 'handle' | 'enableBackups' | 'enablePitr' | 'initializeFromId'>;
  /** The image supports point-in-time recovery (database_image.pitr_supported). */
  pitrSupported: boolean;
  /** Handles of the databases that depend on this one (replicas): deprovisioning is refused while any. */
  dependentHandles: readonly string[];
  denials: DatabaseSettingsDenials;
  onRename: (handle: string) => Promise<unknown>;
  onUpdateBackups: (changes: { enable_backups?: boolean; enable_pitr?: boolean }) => Promise<unknown>;
  onUnlink: () => Promise<unknown>;
  onRestart: () => Promise<unknown>;
  onRestartRecreate: () => Promise<unknown>;
  onDeprovision: () => Promise<unknown>;
}

const renameSchema = z.object({ handle: databaseHandleSchema });

/** A button that runs an action, showing its failure above it (restart, restart with disk backup). */
function ActionButton({
  label,
  denial,
  disabled,
  onRun,
}: {
  label: string;
  denial: string | null;
  disabled?: boolean;
  onRun: () => Promise<unknown>;
}) {
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <div>
        <ScopedButton
          variant="secondary"
          denial={denial}
          disabled={disabled}
          loading={busy}
          onClick={async () => {
            setFailure(null);
            setBusy(true);
            try {
              await onRun();
            } catch (error) {
              setFailure(messageOf(error));
            } finally {
              setBusy(false);
            }
          }}
        >
          {label}
        </ScopedButton>
      </div>
    </>
  );
}

/**
 * spec 2 §2 database settings: rename, backups on/off, point-in-time recovery backups, unlink replica,
 * restart, restart with disk backup and restore (acknowledged first, spec 2 §5) and deprovision (the
 * handle typed exactly; refused while other databases depend on this one).
 */
export function DatabaseSettings({
  database,
  pitrSupported,
  dependentHandles,
  denials,
  onRename,
  onUpdateBackups,
  onUnlink,
  onRestart,
  onRestartRecreate,
  onDeprovision,
}: DatabaseSettingsProps) {
  const id = useId();
  const renameForm = useSchemaForm(renameSchema, {
    defaultValues: { handle: database.handle },
    blocked: (values) => denials.rename !== null || values.handle.trim() === database.handle,
    onSubmit: (values) => onRename(values.handle),
  });
  const [backupFailure, setBackupFailure] = useState<string | null>(null);
  const [savingBackups, setSavingBackups] = useState(false);
  const [acknowledged, setAcknowledged] = useState(false);
  const updateBackups = async (changes: { enable_backups?: boolean; enable_pitr?: boolean }) => {
    setBackupFailure(null);
    setSavingBackups(true);
    try {
      await onUpdateBackups(changes);
    } catch (error) {
      setBackupFailure(messageOf(error));
    } finally {
      setSavingBackups(false);
    }
  };
  const blockedByDependents = dependentHandles.length > 0;

  return (
    <div className="section-stack">
      <Form
        form={renameForm}
        className="card card-body form"
        aria-label="Rename Database"
        title="Rename Database"
      >
        <p className="field-hint">Apps keep the old connection URL until they are restarted or redeployed.</p>
        <TextField label="New Handle" autoComplete="off" spellCheck={false} {...renameForm.field('handle')} />
        <SubmitRow denial={denials.rename} disabled={renameForm.watch('handle').trim() === database.handle}>
          Save Changes
        </SubmitRow>
      </Form>

      <section className="card card-body form" aria-label="Backups">
        <h2 className="section-title">Backups</h2>
        {backupFailure ? <Banner variant="error">{backupFailure}</Banner> : null}
        <div className="checkbox-field">
          <ScopedCheckbox
            id={`${id}-backups`}
            checked={database.enableBackups}
            denial={denials.backups}
            locked={savingBackups}
            onChange={() => void updateBackups({ enable_backups: !database.enableBackups })}
          />
          <label htmlFor={`${id}-backups`}>Enable backups</label>
        </div>
        {!database.enableBackups ? (
          <p className="field-hint">
            Automated backups are off. Turning them off also turned off point-in-time recovery backups.
          </p>
        ) : null}
        {pitrSupported ? (
          <div className="checkbox-field">
            <ScopedCheckbox
              id={`${id}-pitr`}
              checked={database.enablePitr}
              denial={denials.backups}
              // spec 2 §4: PITR backups need backups on (turning backups off turns PITR off).
              locked={savingBackups || (!database.enableBackups && !database.enablePitr)}
              onChange={() => void updateBackups({ enable_pitr: !database.enablePitr })}
            />
            <label htmlFor={`${id}-pitr`}>Enable point-in-time recovery backups</label>
          </div>
        ) : null}
      </section>

      {database.initializeFromId ? (
        <TypedConfirmation
          title="Unlink Replica"
          notices={
            <Banner variant="warning">
              The replica stops being a dependent of its source database. It keeps its data.
            </Banner>
          }
          expected={database.handle}
          fieldLabel={`Type ${database.handle} to confirm`}
          denial={denials.unlink}
          onConfirm={onUnlink}
        />
      ) : null}

      <section className="card card-body form" aria-label="Restart Database">
        <h2 className="section-title">Restart Database</h2>
        <p className="field-hint">Restarts the database's container. Connections drop for a moment.</p>
        <ActionButton label="Restart Database" denial={denials.restart} onRun={onRestart} />
      </section>

      <section className="card card-body form" aria-label="Restart with Disk Backup and Restore">
        <h2 className="section-title">Restart with Disk Backup and Restore</h2>
        <Banner variant="warning">
          The database is stopped, its disk is backed up and restored onto new hardware. This takes longer
          than a restart and the database is unavailable meanwhile.
        </Banner>
        <CheckboxField
          label="I understand the database is unavailable until the disk is restored."
          checked={acknowledged}
          onChange={(event) => setAcknowledged(event.target.checked)}
        />
        <ActionButton
          label="Restart with Disk Backup and Restore"
          denial={denials.restartRecreate}
          disabled={!acknowledged}
          onRun={async () => {
            await onRestartRecreate();
            setAcknowledged(false);
          }}
        />
      </section>

      <TypedConfirmation
        as="form"
        title="Deprovision Database"
        notices={
          blockedByDependents ? (
            <Banner variant="error">{databaseMessages.dependents([...dependentHandles])}</Banner>
          ) : (
            <Banner variant="warning">
              This removes the database and its disk. A final backup is kept if the retention policy says so.
              It cannot be undone.
            </Banner>
          )
        }
        expected={database.handle}
        fieldLabel={`Type ${database.handle} to confirm`}
        denial={denials.deprovision}
        lockFieldWhenDenied={false}
        blocked={blockedByDependents}
        onConfirm={onDeprovision}
      />
    </div>
  );
}
