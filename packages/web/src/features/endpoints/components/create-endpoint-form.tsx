import { ENDPOINT_TOKEN_HEADER } from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import {
  ChoiceGroup,
  ContainerPortField,
  EndpointTextArea,
  IpAllowlistField,
  PlacementField,
} from './endpoint-fields.tsx';
import {
  type CreateEndpointSubmission,
  type CreateEndpointValues,
  createEndpointResolver,
  DEFAULT_CREATE_VALUES,
  toCreateSubmission,
  visibleCreateFields,
} from './endpoint-form-values.ts';
import { EndpointMonthlyCost } from './endpoint-monthly-cost.tsx';
import { HeaderTokenField } from './header-token-field.tsx';
import { LoadBalancingField } from './load-balancing-field.tsx';
import './endpoints.css';

export interface EndpointServiceOption {
  id: string;
  label: string;
}

export interface EndpointCertificateOption {
  id: string;
  label: string;
}

export interface CreateEndpointFormProps {
  services: readonly EndpointServiceOption[];
  certificates: readonly EndpointCertificateOption[];
  /** Why the caller may not create it (action vhost.create), or null. */
  denial: string | null;
  onSubmit: (submission: CreateEndpointSubmission) => Promise<unknown>;
}

/**
 * spec 2 §2 create endpoint form: traffic type, service, custom container port, endpoint type,
 * placement, allowlist, header token, load balancer algorithm and shared, with the field sets of
 * spec 2 §4 by type and the messages of spec 2 §5 (core).
 */
export function CreateEndpointForm({ services, certificates, denial, onSubmit }: CreateEndpointFormProps) {
  const form = useSchemaForm<CreateEndpointValues, CreateEndpointValues>(createEndpointResolver, {
    defaultValues: {
      ...DEFAULT_CREATE_VALUES,
      serviceId: services.length === 1 ? (services[0]?.id ?? '') : '',
      certificateChoice: certificates.length > 0 ? 'existing' : 'new',
    },
    blocked: denial !== null,
    onSubmit: (valid) => onSubmit(toCreateSubmission(valid)),
  });
  const {
    register,
    field,
    watch,
    formState: { errors },
  } = form;
  const values = watch();
  const visible = visibleCreateFields(values);

  return (
    <Form form={form} className="card card-body form" aria-label="New Endpoint">
      <ChoiceGroup
        legend="Traffic Type"
        registration={register('trafficType')}
        options={[
          { value: 'http', label: 'HTTP' },
          { value: 'grpc', label: 'gRPC' },
        ]}
      />
      <SelectField
        label="Service"
        placeholder="Select a service"
        options={services.map((service) => ({ value: service.id, label: service.label }))}
        {...field('serviceId')}
      />
      <ContainerPortField {...field('containerPort')} />
      <ChoiceGroup
        legend="Endpoint Type"
        registration={register('endpointType')}
        options={[
          {
            value: 'default',
            label: 'Default domain',
            description: "A hostname on the stack's default domain, with its certificate.",
          },
          {
            value: 'managed',
            label: 'Managed HTTPS',
            description: 'Your domain, with a certificate issued and renewed for you.',
          },
          {
            value: 'custom',
            label: 'Custom certificate',
            description: 'Your domain, with a certificate you upload.',
          },
        ]}
      />
      {visible.domain ? (
        <TextField
          label="Domain"
          autoComplete="off"
          spellCheck={false}
          placeholder="app.example.com"
          {...field('domain')}
        />
      ) : null}
      {visible.transitional ? (
        <label className="checkbox-field">
          <input type="checkbox" {...register('transitional')} />
          <span>Use a transitional certificate until the managed one is issued</span>
        </label>
      ) : null}
      {visible.certificate ? (
        <>
          <ChoiceGroup
            legend="Certificate Source"
            registration={register('certificateChoice')}
            options={[
              { value: 'existing', label: 'Use an existing certificate' },
              { value: 'new', label: 'Upload a new certificate' },
            ]}
          />
          {values.certificateChoice === 'new' ? (
            <>
              <EndpointTextArea
                label="New Certificate"
                placeholder="-----BEGIN CERTIFICATE-----"
                {...field('certificateBody')}
              />
              <EndpointTextArea
                label="Private Key"
                placeholder="-----BEGIN PRIVATE KEY-----"
                {...field('privateKey')}
              />
            </>
          ) : (
            <SelectField
              label="Certificate"
              placeholder="Select a certificate"
              options={certificates.map((certificate) => ({
                value: certificate.id,
                label: certificate.label,
              }))}
              {...field('certificateId')}
            />
          )}
        </>
      ) : null}
      <PlacementField registration={register('placement')} />
      <IpAllowlistField placeholder="203.0.113.0/24" {...field('ipAllowlist')} />
      <HeaderTokenField
        hint={`Requests must carry this token in the ${ENDPOINT_TOKEN_HEADER} header. Letters, numbers and _ - : . only.`}
        {...field('tokenHeader')}
      />
      {visible.lbAlgorithm ? <LoadBalancingField {...field('lbAlgorithm')} /> : null}
      {visible.shared ? (
        <div className="field">
          <label className="checkbox-field">
            <input type="checkbox" {...register('shared')} />
            <span>Shared endpoint (a shared load balancer; cannot be made dedicated later)</span>
          </label>
          {errors.shared?.message ? <p className="field-error">{errors.shared.message}</p> : null}
        </div>
      ) : null}
      <EndpointMonthlyCost shared={visible.shared && values.shared} />
      <SubmitRow denial={denial}>Save Endpoint</SubmitRow>
    </Form>
  );
}
