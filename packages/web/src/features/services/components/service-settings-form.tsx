import { STOP_TIMEOUT_MAX_SECONDS, serviceSettingsSchema } from '@berth/core';
import { useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import type { Service } from '../api/service.hal.ts';

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
  const [stopTimeout, setStopTimeout] = useState(
    service.stopTimeout === null ? '' : String(service.stopTimeout),
  );
  const [zeroDowntime, setZeroDowntime] = useState(service.forceZeroDowntime);
  const [healthcheck, setHealthcheck] = useState(service.naiveHealthCheck);
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);

  const clamp = () => {
    const text = stopTimeout.trim();
    if (text === '' || !/^-?\d+$/.test(text)) return;
    setStopTimeout(String(Math.min(STOP_TIMEOUT_MAX_SECONDS, Math.max(0, Number(text)))));
  };

  return (
    <form
      className="card card-body form form-card"
      aria-label="Service Settings"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        setFailure(null);
        setSaved(false);
        const parsed = serviceSettingsSchema.safeParse({
          stop_timeout: stopTimeout,
          ...(hasEndpoints ? {} : { force_zero_downtime: zeroDowntime, naive_health_check: healthcheck }),
        });
        if (!parsed.success) {
          setFailure(parsed.error.issues[0]?.message ?? 'Failed to save settings');
          return;
        }
        setBusy(true);
        try {
          await onSave({ ...parsed.data, stop_timeout: parsed.data.stop_timeout ?? null });
          setSaved(true);
        } catch (error) {
          // spec 2 §8: 'Failed to save settings', with the server's reason.
          setFailure(`Failed to save settings: ${messageOf(error)}`);
        } finally {
          setBusy(false);
        }
      }}
    >
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      {saved ? <Banner variant="success">Settings saved</Banner> : null}
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
          value={stopTimeout}
          onBlur={clamp}
          onChange={(event) => setStopTimeout(event.target.value)}
        />
        <p className="field-hint">0 to {STOP_TIMEOUT_MAX_SECONDS}. Leave empty for the platform default.</p>
      </div>
      {hasEndpoints ? (
        <p className="field-hint">
          Cannot configure zero-downtime or non-endpoint health checks for services with endpoints.
        </p>
      ) : (
        <>
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={zeroDowntime}
              onChange={(event) => setZeroDowntime(event.target.checked)}
            />
            <span>Enable Zero-Downtime Deployment</span>
          </label>
          <label className="checkbox-field">
            <input
              type="checkbox"
              checked={healthcheck}
              onChange={(event) => setHealthcheck(event.target.checked)}
            />
            <span>Use Simple Healthcheck</span>
          </label>
        </>
      )}
      <div>
        <ScopedButton type="submit" denial={denial} loading={busy}>
          Save Settings
        </ScopedButton>
      </div>
    </form>
  );
}
