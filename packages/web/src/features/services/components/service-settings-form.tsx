import { STOP_TIMEOUT_MAX_SECONDS, serviceSettingsSchema } from '@berth/core';
import { useId } from 'react';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import type { Service } from '../../../resources/services/service.hal.ts';

export interface ServiceSettingsValues {
  stop_timeout: number | null;
  force_zero_downtime?: boolean;
  naive_health_check?: boolean;
}

export interface ServiceSettingsFormProps {
  service: Pick<Service, 'stopTimeout' | 'forceZeroDowntime' | 'naiveHealthCheck'>;
  /** Services with endpoints cannot take the zero-downtime and healthcheck options (spec 2 §5). */
  hasEndpoints: boolean;
  denial: string | null;
  onSave: (values: ServiceSettingsValues) => Promise<unknown>;
}

/** spec 2 §5: stop timeout 0 to 900 (clamped; empty is null), zero-downtime and simple healthcheck. */
export function ServiceSettingsForm({ service, hasEndpoints, denial, onSave }: ServiceSettingsFormProps) {
  const id = useId();
  const form = useSchemaForm(serviceSettingsSchema, {
    defaultValues: {
      stop_timeout: service.stopTimeout === null ? '' : String(service.stopTimeout),
      force_zero_downtime: service.forceZeroDowntime,
      naive_health_check: service.naiveHealthCheck,
    },
    blocked: denial !== null,
    onSubmit: ({ stop_timeout = null, force_zero_downtime, naive_health_check }) =>
      // Services with endpoints never send the two options they cannot take.
      onSave(hasEndpoints ? { stop_timeout } : { stop_timeout, force_zero_downtime, naive_health_check }),
    // spec 2 §8: 'Failed to save settings', with the server's reason.
    failureMessage: (error) => `Failed to save settings: ${messageOf(error)}`,
    successMessage: () => 'Settings saved',
  });

  const clamp = () => {
    const value = form.getValues('stop_timeout');
    const text = typeof value === 'string' ? value.trim() : '';
    if (text === '' || !/^-?\d+$/.test(text)) return;
    form.setValue('stop_timeout', String(Math.min(STOP_TIMEOUT_MAX_SECONDS, Math.max(0, Number(text)))));
  };

  return (
    <Form form={form} className="card card-body form form-card" aria-label="Service Settings">
      <div className="field">
        <label className="field-label" htmlFor={`${id}-stop`}>
          Stop Timeout (seconds)
        </label>
        <input
          id={`${id}-stop`}
          className="input"
          type="number"
          min={0}
          max={STOP_TIMEOUT_MAX_SECONDS}
          aria-invalid={form.formState.errors.stop_timeout ? true : undefined}
          {...form.register('stop_timeout', { onBlur: clamp })}
        />
        <p className="field-hint">0 to {STOP_TIMEOUT_MAX_SECONDS}. Leave empty for the platform default.</p>
        {form.formState.errors.stop_timeout ? (
          <p className="field-error">{form.formState.errors.stop_timeout.message}</p>
        ) : null}
      </div>
      {hasEndpoints ? (
        <p className="field-hint">
          Cannot configure zero-downtime or non-endpoint health checks for services with endpoints.
        </p>
      ) : (
        <>
          <label className="checkbox-field">
            <input type="checkbox" {...form.register('force_zero_downtime')} />
            <span>Enable Zero-Downtime Deployment</span>
          </label>
          <label className="checkbox-field">
            <input type="checkbox" {...form.register('naive_health_check')} />
            <span>Use Simple Healthcheck</span>
          </label>
        </>
      )}
      <SubmitRow denial={denial}>Save Settings</SubmitRow>
    </Form>
  );
}
