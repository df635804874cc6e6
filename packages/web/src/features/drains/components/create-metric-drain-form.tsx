import {
  DATADOG_SITES,
  type DatadogSite,
  METRIC_DRAIN_TYPE_LABELS,
  METRIC_DRAIN_TYPES,
  metricDrainBody,
  metricDrainFormSchema,
} from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface CreateMetricDrainFormProps {
  /** Why the caller may not create drains here (the Ops scope, spec 1 §6), or null. */
  denial: string | null;
  /** The environment's InfluxDB databases, for that type. */
  influxDatabases: { id: string; handle: string }[];
  onSubmit: (body: ReturnType<typeof metricDrainBody>) => Promise<unknown>;
}

type TextName =
  | 'handle'
  | 'hostname'
  | 'port'
  | 'username'
  | 'password'
  | 'database'
  | 'org'
  | 'authToken'
  | 'bucket'
  | 'apiKey';

/**
 * spec 2 §2 /metric-drains/create: InfluxDB (host, port, protocol and an account), InfluxDB 2 (host,
 * port, protocol, organization, token, bucket), Datadog (API key and site) or an InfluxDB database of
 * the environment. Core's rules give the spec's messages and build the API's body.
 */
export function CreateMetricDrainForm({ denial, influxDatabases, onSubmit }: CreateMetricDrainFormProps) {
  const form = useSchemaForm(metricDrainFormSchema, {
    defaultValues: {
      handle: '',
      drain_type: 'influxdb',
      hostname: '',
      port: '',
      protocol: 'https',
      username: '',
      password: '',
      database: '',
      org: '',
      authToken: '',
      bucket: '',
      apiKey: '',
      site: 'US1',
      database_id: '',
    },
    blocked: denial !== null,
    onSubmit: (input) => onSubmit(metricDrainBody(input)),
  });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const type = watch('drain_type');
  const text = (name: TextName, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      autoComplete="off"
      spellCheck={false}
      {...extra}
      {...register(name)}
      error={errors[name]?.message}
    />
  );
  const influx = type === 'influxdb' || type === 'influxdb2';

  return (
    <Form form={form} className="card card-body form" aria-label="New Metric Drain">
      {text('handle', 'Handle')}
      <SelectField
        label="Type"
        options={METRIC_DRAIN_TYPES.map((value) => ({ value, label: METRIC_DRAIN_TYPE_LABELS[value] }))}
        {...register('drain_type')}
        error={errors.drain_type?.message}
      />
      {influx ? (
        <>
          {text('hostname', 'Hostname', { placeholder: 'influx.example.com' })}
          {text('port', 'Port', { inputMode: 'numeric', hint: 'Empty: 443 for HTTPS, 80 for HTTP.' })}
          <SelectField
            label="Protocol"
            options={[
              { value: 'https', label: 'HTTPS' },
              { value: 'http', label: 'HTTP' },
            ]}
            {...register('protocol')}
          />
        </>
      ) : null}
      {type === 'influxdb' ? (
        <>
          {text('username', 'Username')}
          {text('password', 'Password', { type: 'password' })}
          {text('database', 'Database')}
        </>
      ) : null}
      {type === 'influxdb2' ? (
        <>
          {text('org', 'Organization')}
          {text('authToken', 'API Token', { type: 'password' })}
          {text('bucket', 'Bucket')}
        </>
      ) : null}
      {type === 'datadog' ? (
        <>
          {text('apiKey', 'API Key', { type: 'password' })}
          <SelectField
            label="Site"
            options={(Object.keys(DATADOG_SITES) as DatadogSite[]).map((site) => ({
              value: site,
              label: site,
            }))}
            {...register('site')}
          />
        </>
      ) : null}
      {type === 'influxdb_database' ? (
        <SelectField
          label="Database"
          placeholder="Select an InfluxDB database"
          options={influxDatabases.map((database) => ({ value: database.id, label: database.handle }))}
          {...register('database_id')}
          error={errors.database_id?.message}
        />
      ) : null}
      <SubmitRow denial={denial}>Save Metric Drain</SubmitRow>
    </Form>
  );
}
