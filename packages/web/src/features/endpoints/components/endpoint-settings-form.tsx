import { ENDPOINT_TOKEN_HEADER, endpointMessages } from '@berth/core';
import type { Resolver } from 'react-hook-form';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { type Endpoint, isHttpEndpoint } from '../../../resources/endpoints/endpoint.hal.ts';
import type { UpdateEndpointBody } from '../api/endpoint-requests.ts';
import { ContainerPortField, IpAllowlistField } from './endpoint-fields.tsx';
import {
  type EndpointSettingsValues,
  endpointSettingsErrors,
  settingsValuesOf,
  toUpdateBody,
} from './endpoint-form-values.ts';
import { HeaderTokenField } from './header-token-field.tsx';
import { LoadBalancingField } from './load-balancing-field.tsx';
import './endpoints.css';

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
  const resolver: Resolver<EndpointSettingsValues> = async (values) => {
    const errors = endpointSettingsErrors(endpoint, values);
    return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
  };
  const form = useSchemaForm<EndpointSettingsValues, EndpointSettingsValues>(resolver, {
    defaultValues: settingsValuesOf(endpoint),
    blocked: denial !== null,
    onSubmit: (values) => onSave(toUpdateBody(endpoint, values)),
  });
  const {
    register,
    field,
    formState: { errors, isDirty },
  } = form;
  const http = isHttpEndpoint(endpoint);

  return (
    <Form
      form={form}
      className="card card-body form"
      aria-label="Endpoint Settings"
      title="Endpoint Settings"
    >
      <IpAllowlistField {...field('ipAllowlist')} />
      <ContainerPortField {...field('containerPort')} />
      <HeaderTokenField
        hint={
          endpoint.hasTokenHeader
            ? 'A header token is set. Type a new one to replace it; leave empty to keep it.'
            : `Requests must carry this token in the ${ENDPOINT_TOKEN_HEADER} header. Letters, numbers and _ - : . only.`
        }
        {...field('tokenHeader')}
      />
      {endpoint.hasTokenHeader ? (
        <label className="checkbox-field">
          <input type="checkbox" {...register('removeTokenHeader')} />
          <span>Stop requiring the header token</span>
        </label>
      ) : null}
      {http ? <LoadBalancingField {...field('lbAlgorithm')} /> : null}
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
      <SubmitRow denial={denial} disabled={!isDirty}>
        Save Changes
      </SubmitRow>
    </Form>
  );
}
