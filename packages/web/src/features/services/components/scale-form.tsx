import { cpuShare, MAX_CONTAINER_COUNT } from '@berth/core';
import { useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import type { Service } from '../api/service.hal.ts';
import type { ScaleRequest } from '../api/use-scale-service.ts';
import type { AllowedFamilies } from '../api/use-stack-profiles.ts';
import {
  formatGb,
  profileOptions,
  scaleFormProblem,
  sizeForProfile,
  sizeOptionsMb,
} from './scale-options.ts';

export interface ScaleFormProps {
  service: Pick<Service, 'containerCount' | 'containerMemoryMb' | 'instanceClass'>;
  allowed: AllowedFamilies;
  /** Why the caller may not scale (action service.scale), or null. */
  denial: string | null;
  onScale: (request: ScaleRequest) => Promise<unknown>;
}

/** spec 2 §5 manual scale: container count 0 to 32, profile, size; Save only when something changed. */
export function ScaleForm({ service, allowed, denial, onScale }: ScaleFormProps) {
  const id = useId();
  const [count, setCount] = useState(String(service.containerCount));
  const [instanceClass, setInstanceClass] = useState(service.instanceClass);
  const [sizeMb, setSizeMb] = useState(service.containerMemoryMb);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const problem = scaleFormProblem({ count, instanceClass, sizeMb });
  const changed =
    count.trim() !== String(service.containerCount) ||
    instanceClass !== service.instanceClass ||
    sizeMb !== service.containerMemoryMb;
  const sizes = sizeOptionsMb(
    instanceClass,
    instanceClass === service.instanceClass ? service.containerMemoryMb : undefined,
  );
  const share = cpuShare(instanceClass, sizeMb);
  const countValue = Number(count);

  return (
    <form
      className="card card-body form form-card"
      aria-label="Scale"
      noValidate
      onSubmit={async (event) => {
        event.preventDefault();
        if (problem || !changed) return;
        setFailure(null);
        setBusy(true);
        try {
          await onScale({
            containerCount: Number(count),
            containerSizeMb: sizeMb,
            instanceProfile: instanceClass,
          });
        } catch (error) {
          setFailure(messageOf(error));
        } finally {
          setBusy(false);
        }
      }}
    >
      {failure ? <Banner variant="error">{failure}</Banner> : null}
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
          value={count}
          aria-invalid={problem?.startsWith('Container count') || undefined}
          onChange={(event) => setCount(event.target.value)}
        />
        <p className="field-hint">
          {Number.isInteger(countValue) && countValue >= 2
            ? 'High Availability: containers run on separate hosts.'
            : `0 to ${MAX_CONTAINER_COUNT}. Two or more give High Availability.`}
        </p>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-profile`}>
          Container Profile
        </label>
        <select
          id={`${id}-profile`}
          className="select"
          value={instanceClass}
          onChange={(event) => {
            const next = event.target.value;
            setInstanceClass(next);
            setSizeMb((current) => sizeForProfile(next, current));
          }}
        >
          {profileOptions(allowed, service.instanceClass).map((option) => (
            <option key={option.instanceClass} value={option.instanceClass}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field-label" htmlFor={`${id}-size`}>
          Memory Limit
        </label>
        <select
          id={`${id}-size`}
          className="select"
          value={sizeMb}
          onChange={(event) => setSizeMb(Number(event.target.value))}
        >
          {sizes.map((mb) => (
            <option key={mb} value={mb}>
              {formatGb(mb)}
            </option>
          ))}
        </select>
        <p className="field-hint">CPU Share: {share === null ? 'Unknown' : share}</p>
      </div>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div>
        <ScopedButton type="submit" denial={denial} loading={busy} disabled={!changed || problem !== null}>
          Save Changes
        </ScopedButton>
      </div>
    </form>
  );
}
