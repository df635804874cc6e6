import {
  type CreateLogDrainBody,
  createLogDrainSchema,
  INSIGHTOPS_HOST,
  INSIGHTOPS_PORT,
  LOG_DRAIN_SOURCE_DEFAULTS,
  LOG_DRAIN_TYPE_LABELS,
  LOG_DRAIN_TYPES,
  type LogDrainType,
} from '@berth/core';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';

export interface CreateLogDrainFormProps {
  /** Why the caller may not create drains here (the Ops scope, spec 1 §6), or null. */
  denial: string | null;
  /** The environment's Elasticsearch databases, for that type. */
  elasticsearchDatabases: { id: string; handle: string }[];
  onSubmit: (body: CreateLogDrainBody) => Promise<unknown>;
}

/** Which fields each type asks for (spec 2 §5). */
const FIELDS: Record<LogDrainType, { url?: true; host?: true; port?: true; token?: true; database?: true }> =
  {
    https_post: { url: true },
    datadog: { url: true },
    logdna: { url: true },
    sumologic: { url: true },
    syslog_tls_tcp: { host: true, port: true, token: true },
    papertrail: { host: true, port: true },
    solarwinds: { host: true, token: true },
    insightops: { token: true },
    elasticsearch_database: { database: true },
  };

const URL_HINTS: Partial<Record<LogDrainType, string>> = {
  datadog:
    'The intake URL with your API key, e.g. https://http-intake.logs.datadoghq.com/api/v2/logs?dd-api-key=…',
  logdna: 'The ingestion URL with your ingestion key.',
  sumologic: 'The HTTP source URL Sumo Logic gave you.',
  https_post: 'Lines are POSTed as JSON arrays to this URL.',
};

/**
 * spec 2 §2 /log-drains/create: the drain's type decides its fields (a URL for the HTTPS services, a
 * host and port for syslog, a token where the service needs one, a database for Elasticsearch), then
 * which logs it takes. Core's schema gives the spec's messages before anything is sent.
 */
export function CreateLogDrainForm({ denial, elasticsearchDatabases, onSubmit }: CreateLogDrainFormProps) {
  const form = useSchemaForm(createLogDrainSchema, {
    defaultValues: {
      handle: '',
      drain_type: 'https_post',
      url: '',
      drain_host: '',
      drain_port: '',
      logging_token: '',
      database_id: '',
      ...LOG_DRAIN_SOURCE_DEFAULTS,
    },
    blocked: denial !== null,
    onSubmit: async (input) => {
      const fields = FIELDS[input.drain_type];
      // Only the chosen type's fields go: a URL typed under another type is not sent along.
      await onSubmit({
        handle: input.handle,
        drain_type: input.drain_type,
        drain_apps: input.drain_apps,
        drain_databases: input.drain_databases,
        drain_ephemeral_sessions: input.drain_ephemeral_sessions,
        drain_proxies: input.drain_proxies,
        ...(fields.url ? { url: input.url } : {}),
        ...(fields.host ? { drain_host: input.drain_host } : {}),
        ...(fields.port ? { drain_port: input.drain_port } : {}),
        ...(fields.token ? { logging_token: input.logging_token } : {}),
        ...(fields.database ? { database_id: input.database_id } : {}),
      });
    },
  });
  const {
    register,
    watch,
    formState: { errors },
  } = form;
  const type = watch('drain_type') as LogDrainType;
  const fields = FIELDS[type] ?? {};
  const text = (name: 'handle' | 'url' | 'drain_host' | 'logging_token') => ({
    ...register(name),
    error: errors[name]?.message,
  });

  return (
    <Form form={form} className="card card-body form" aria-label="New Log Drain">
      <TextField label="Handle" autoComplete="off" spellCheck={false} {...text('handle')} />
      <SelectField
        label="Type"
        options={LOG_DRAIN_TYPES.map((value) => ({ value, label: LOG_DRAIN_TYPE_LABELS[value] }))}
        {...register('drain_type')}
        error={errors.drain_type?.message}
      />
      {fields.url ? (
        <TextField
          label="URL"
          autoComplete="off"
          spellCheck={false}
          hint={URL_HINTS[type]}
          {...text('url')}
        />
      ) : null}
      {fields.host ? (
        <TextField
          label="Drain Host"
          autoComplete="off"
          spellCheck={false}
          placeholder="logs.example.com"
          {...text('drain_host')}
        />
      ) : null}
      {fields.port ? (
        <TextField
          label="Drain Port"
          inputMode="numeric"
          placeholder="6514"
          {...register('drain_port')}
          error={errors.drain_port?.message}
        />
      ) : null}
      {type === 'insightops' ? (
        <p className="field-hint">
          InsightOps takes syslog at {INSIGHTOPS_HOST}, port {INSIGHTOPS_PORT}.
        </p>
      ) : null}
      {fields.token ? (
        <TextField
          label="Token"
          autoComplete="off"
          spellCheck={false}
          hint="Each line is sent behind this token."
          {...text('logging_token')}
        />
      ) : null}
      {fields.database ? (
        <SelectField
          label="Database"
          placeholder="Select an Elasticsearch database"
          options={elasticsearchDatabases.map((database) => ({ value: database.id, label: database.handle }))}
          {...register('database_id')}
          error={errors.database_id?.message}
        />
      ) : null}
      <fieldset className="field">
        <legend>Logs to send</legend>
        <label className="checkbox-field">
          <input type="checkbox" {...register('drain_apps')} />
          <span>Apps (their containers' output and their operations' logs)</span>
        </label>
        <label className="checkbox-field">
          <input type="checkbox" {...register('drain_databases')} />
          <span>Databases</span>
        </label>
        <label className="checkbox-field">
          <input type="checkbox" {...register('drain_ephemeral_sessions')} />
          <span>SSH sessions</span>
        </label>
        <label className="checkbox-field">
          <input type="checkbox" {...register('drain_proxies')} />
          <span>Endpoints</span>
        </label>
      </fieldset>
      <SubmitRow denial={denial}>Save Log Drain</SubmitRow>
    </Form>
  );
}
