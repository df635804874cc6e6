import { endpointMessages, LOAD_BALANCING_ALGORITHM_LABELS, LOAD_BALANCING_ALGORITHMS } from '@berth/core';
import { useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Banner } from '../../../components/ui/banner.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { type Endpoint, isHttpEndpoint } from '../api/endpoint.hal.ts';
import type { UpdateEndpointBody } from '../api/endpoint-requests.ts';
import {
  type EndpointSettingsValues,
  endpointSettingsErrors,
  settingsValuesOf,
  toUpdateBody,
} from './endpoint-form-values.ts';
import { HeaderTokenField } from './header-token-field.tsx';
import './endpoints.css';
import { messageOf } from '../../../lib/error-message.ts';

export interface EndpointSettingsFormProps {
  endpoint: Endpoint;
  /** Why the caller may not change it (action vhost.update), or null. */
  denial: string | null;
  onSave: (body: UpdateEndpointBody) => Promise<unknown>;
}

/**
 * spec 2 §2 endpoint settings: the allowlist, container port, header token, load balancing algorithm
 * and shared. spec 2 §4 endpoint update: the page patches the endpoint, then provisions it.
 */
export function EndpointSettingsForm({ endpoint, denial, onSave }: EndpointSettingsFormProps) {
  const [failure, setFailure] = useState<string | null>(null);
  const resolver: Resolver<EndpointSettingsValues> = async (values) => {
    const errors = endpointSettingsErrors(endpoint, values);
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<EndpointSettingsValues>({ resolver, defaultValues: settingsValuesOf(endpoint) });
  const http = isHttpEndpoint(endpoint);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSave(toUpdateBody(endpoint, values));
    } catch (error) {
      setFailure(messageOf(error));
    }
  });

  return (
    <form className="card card-body form" aria-label="Endpoint Settings" noValidate onSubmit={submit}>
      <h2 className="section-title">Endpoint Settings</h2>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <FormField
        label="IP Allowlist"
        hint="IPv4 addresses or CIDRs, separated by spaces or new lines (at most 50). Empty allows all traffic."
        error={errors.ipAllowlist?.message}
      >
        {(control) => (
          <textarea
            className="input endpoint-form-textarea"
            rows={4}
            spellCheck={false}
            {...control}
            {...register('ipAllowlist')}
          />
        )}
      </FormField>
      <TextField
        label="Custom Container Port"
        inputMode="numeric"
        autoComplete="off"
        hint="Leave empty to use the port the image exposes first."
        error={errors.containerPort?.message}
        {...register('containerPort')}
      />
      <HeaderTokenField
        hint={
          endpoint.hasTokenHeader
            ? 'A header token is set. Type a new one to replace it; leave empty to keep it.'
            : 'Requests must carry this token in a header. Letters, numbers and _ - : . only.'
        }
        error={errors.tokenHeader?.message}
        registration={register('tokenHeader')}
      />
      {endpoint.hasTokenHeader ? (
        <label className="checkbox-field">
          <input type="checkbox" {...register('removeTokenHeader')} />
          <span>Stop requiring the header token</span>
        </label>
      ) : null}
      {http ? (
        <FormField label="Load Balancing Algorithm" error={errors.lbAlgorithm?.message}>
          {(control) => (
            <select className="select" {...control} {...register('lbAlgorithm')}>
              {LOAD_BALANCING_ALGORITHMS.map((algorithm) => (
                <option key={algorithm} value={algorithm}>
                  {LOAD_BALANCING_ALGORITHM_LABELS[algorithm]}
                </option>
              ))}
            </select>
          )}
        </FormField>
      ) : null}
      {http ? (
        <div className="field">
          <label className="checkbox-field">
            {/* spec 2 §4 and §8: a shared endpoint cannot go back to dedicated. */}
            <input type="checkbox" disabled={endpoint.shared} {...register('shared')} />
            <span>Shared endpoint</span>
          </label>
          {endpoint.shared ? <p className="field-hint">{endpointMessages.sharedToDedicated}</p> : null}
          {errors.shared?.message ? <p className="field-error">{errors.shared.message}</p> : null}
        </div>
      ) : null}
      <div>
        <ScopedButton type="submit" denial={denial} loading={isSubmitting} disabled={!isDirty}>
          Save Changes
        </ScopedButton>
      </div>
    </form>
  );
}
