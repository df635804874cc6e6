import { Banner } from '../../../components/ui/banner.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import type { CreateEndpointBody } from '../api/endpoint-requests.ts';
import { IpAllowlistField, PlacementField } from './endpoint-fields.tsx';
import {
  type DatabaseEndpointValues,
  DEFAULT_DATABASE_ENDPOINT_VALUES,
  databaseEndpointResolver,
  toDatabaseEndpointBody,
} from './endpoint-form-values.ts';
import { EndpointMonthlyCost } from './endpoint-monthly-cost.tsx';
import './endpoints.css';

export interface CreateDatabaseEndpointFormProps {
  /** Why the caller may not create it (action vhost.create), or null. */
  denial: string | null;
  /** Why the database cannot take an endpoint yet (no service before it is provisioned), or null. */
  unavailable?: string | null;
  onSubmit: (body: CreateEndpointBody) => Promise<unknown>;
}

/**
 * spec 2 §2 New Endpoint on a database page: placement (external or internal) and IP allowlist; the
 * request is contract §5.9's database endpoint (tcp on elb), checked by core's create schema.
 */
export function CreateDatabaseEndpointForm({
  denial,
  unavailable = null,
  onSubmit,
}: CreateDatabaseEndpointFormProps) {
  const form = useSchemaForm<DatabaseEndpointValues, DatabaseEndpointValues>(databaseEndpointResolver, {
    defaultValues: DEFAULT_DATABASE_ENDPOINT_VALUES,
    blocked: denial !== null || unavailable !== null,
    onSubmit: (valid) => onSubmit(toDatabaseEndpointBody(valid)),
  });
  const {
    register,
    field,
    formState: { errors },
  } = form;
  return (
    <Form form={form} className="card card-body form" aria-label="New Database Endpoint">
      {unavailable ? <Banner variant="warning">{unavailable}</Banner> : null}
      <PlacementField registration={register('placement')} />
      {errors.placement?.message ? <p className="field-error">{errors.placement.message}</p> : null}
      <IpAllowlistField placeholder="203.0.113.0/24" {...field('ipAllowlist')} />
      {/* Database endpoints are tcp, never shared (contract §5.9). */}
      <EndpointMonthlyCost shared={false} />
      <SubmitRow denial={denial} disabled={unavailable !== null}>
        Save Endpoint
      </SubmitRow>
    </Form>
  );
}
