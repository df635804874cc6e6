import {
  createCertificateSchema,
  createEndpointSchema,
  DEFAULT_LOAD_BALANCING_ALGORITHM,
  endpointMessages,
  endpointSettingsProblems,
  type LoadBalancingAlgorithm,
  sharedConversionProblem,
  updateEndpointSchema,
} from '@berth/core';
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Endpoint } from '../../../resources/endpoints/endpoint.hal.ts';
import type { CreateEndpointBody, UpdateEndpointBody } from '../api/endpoint-requests.ts';

// The create and settings forms speak the spec's words (spec 2 §2: traffic type, endpoint type,
// placement...); the rules and messages are core's (createEndpointSchema, updateEndpointSchema), run on
// the request the form would send, and each message is placed under the field it is about.

export type TrafficType = 'http' | 'grpc';
export type EndpointKind = 'default' | 'managed' | 'custom';
export type CertificateChoice = 'existing' | 'new';

export interface CreateEndpointValues {
  trafficType: TrafficType;
  serviceId: string;
  containerPort: string;
  endpointType: EndpointKind;
  placement: 'external' | 'internal';
  ipAllowlist: string;
  tokenHeader: string;
  lbAlgorithm: LoadBalancingAlgorithm;
  shared: boolean;
  domain: string;
  /** Managed HTTPS: serve a transitional certificate until the managed one is issued. */
  transitional: boolean;
  certificateChoice: CertificateChoice;
  certificateId: string;
  certificateBody: string;
  privateKey: string;
}

export const DEFAULT_CREATE_VALUES: CreateEndpointValues = {
  trafficType: 'http',
  serviceId: '',
  containerPort: '',
  endpointType: 'default',
  placement: 'external',
  ipAllowlist: '',
  tokenHeader: '',
  lbAlgorithm: DEFAULT_LOAD_BALANCING_ALGORITHM,
  shared: false,
  domain: '',
  transitional: false,
  certificateChoice: 'existing',
  certificateId: '',
  certificateBody: '',
  privateKey: '',
};

/** spec 2 §4 field sets by type: which optional fields the form shows for these values. */
export function visibleCreateFields(
  values: Pick<CreateEndpointValues, 'trafficType' | 'endpointType' | 'shared' | 'transitional'>,
) {
  const http = values.trafficType === 'http';
  const managed = values.endpointType === 'managed';
  const custom = values.endpointType === 'custom';
  return {
    lbAlgorithm: http,
    shared: http,
    // The domain shows for managed HTTPS, and for a custom certificate when shared.
    domain: managed || (custom && http && values.shared),
    transitional: managed,
    certificate: custom || (managed && values.transitional),
  };
}

/** What the create form hands over: the endpoint request, and the certificate to use or upload first. */
export interface CreateEndpointSubmission {
  serviceId: string;
  body: CreateEndpointBody;
  certificate:
    | { kind: 'none' }
    | { kind: 'existing'; id: string }
    | { kind: 'new'; certificate_body: string; private_key: string };
}

function allowlistEntries(text: string): string[] {
  return text.split(/[\s,]+/).filter((entry) => entry !== '');
}

export function toCreateSubmission(values: CreateEndpointValues): CreateEndpointSubmission {
  const fields = visibleCreateFields(values);
  const http = values.trafficType === 'http';
  const body: CreateEndpointBody = {
    type: values.trafficType,
    // contract §4.3: alb for all but gRPC.
    platform: http ? 'alb' : 'elb',
    acme: values.endpointType === 'managed',
    default: values.endpointType === 'default',
    internal: values.placement === 'internal',
    ip_whitelist: allowlistEntries(values.ipAllowlist),
  };
  if (values.containerPort.trim()) body.container_port = values.containerPort.trim();
  if (values.tokenHeader.trim()) body.token_header = values.tokenHeader.trim();
  if (fields.domain && values.domain.trim()) body.user_domain = values.domain.trim();
  if (http) {
    body.load_balancing_algorithm_type = values.lbAlgorithm;
    body.shared = values.shared;
  }
  let certificate: CreateEndpointSubmission['certificate'] = { kind: 'none' };
  if (fields.certificate) {
    certificate =
      values.certificateChoice === 'new'
        ? { kind: 'new', certificate_body: values.certificateBody, private_key: values.privateKey }
        : values.certificateId
          ? { kind: 'existing', id: values.certificateId }
          : { kind: 'none' };
  }
  return { serviceId: values.serviceId, body, certificate };
}

type CreateField = keyof CreateEndpointValues;

/** Where a core message belongs in the create form. */
function createFieldOf(
  path: PropertyKey | undefined,
  message: string,
  choice: CertificateChoice,
): CreateField {
  switch (path) {
    case 'ip_whitelist':
      return 'ipAllowlist';
    case 'container_port':
      return 'containerPort';
    case 'token_header':
      return 'tokenHeader';
    case 'user_domain':
      return 'domain';
    case 'load_balancing_algorithm_type':
      return 'lbAlgorithm';
    case 'shared':
      return 'shared';
  }
  if (message === endpointMessages.tokenHeaderCharacters || message === endpointMessages.tokenHeaderType) {
    return 'tokenHeader';
  }
  if (message === endpointMessages.certificateRequired) {
    return choice === 'new' ? 'certificateBody' : 'certificateId';
  }
  if (message === endpointMessages.sharedHttpOnly) return 'shared';
  if (message === endpointMessages.loadBalancingHttpOnly) return 'lbAlgorithm';
  return 'domain';
}

/** Puts a message under a field; spec 2 §8: several messages are joined with commas. */
function addError<T extends FieldValues>(errors: FieldErrors<T>, field: keyof T & string, message: string) {
  const all = errors as Record<string, { type: string; message?: string } | undefined>;
  const existing = all[field]?.message;
  all[field] = { type: 'validate', message: existing ? `${existing}, ${message}` : message };
}

/** The create form's problems, by field (empty when the form may be sent). */
export function createEndpointErrors(values: CreateEndpointValues): FieldErrors<CreateEndpointValues> {
  const errors: FieldErrors<CreateEndpointValues> = {};
  if (!values.serviceId) addError(errors, 'serviceId', endpointMessages.serviceRequired);
  const submission = toCreateSubmission(values);
  const fields = visibleCreateFields(values);
  // A certificate chosen or about to be uploaded counts as present; its PEM text is checked below.
  const placeholder =
    fields.certificate && (values.certificateChoice === 'new' || values.certificateId)
      ? { certificate: values.certificateChoice === 'new' ? '0' : values.certificateId }
      : {};
  const parsed = createEndpointSchema.safeParse({ ...submission.body, ...placeholder });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      addError(errors, createFieldOf(issue.path[0], issue.message, values.certificateChoice), issue.message);
    }
  }
  if (fields.certificate && values.certificateChoice === 'new') {
    const pem = createCertificateSchema.safeParse({
      certificate_body: values.certificateBody,
      private_key: values.privateKey,
    });
    if (!pem.success) {
      for (const issue of pem.error.issues) {
        const field = issue.path[0] === 'private_key' ? 'privateKey' : 'certificateBody';
        if (!errors[field]) addError(errors, field, issue.message);
      }
    }
  }
  return errors;
}

export const createEndpointResolver: Resolver<CreateEndpointValues> = async (values) => {
  const errors = createEndpointErrors(values);
  return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
};

/** spec 2 §2 New Endpoint on a database page: placement and allowlist only (spec 2 §4 "Other"). */
export interface DatabaseEndpointValues {
  placement: 'external' | 'internal';
  ipAllowlist: string;
}

export const DEFAULT_DATABASE_ENDPOINT_VALUES: DatabaseEndpointValues = {
  placement: 'external',
  ipAllowlist: '',
};

/** contract §5.9 database endpoint: a tcp endpoint on the elb platform, never default nor managed. */
export function toDatabaseEndpointBody(values: DatabaseEndpointValues): CreateEndpointBody {
  return {
    type: 'tcp',
    platform: 'elb',
    acme: false,
    default: false,
    internal: values.placement === 'internal',
    ip_whitelist: allowlistEntries(values.ipAllowlist),
  };
}

/** The database endpoint form's problems: core's create schema on the body it would send. */
export function databaseEndpointErrors(values: DatabaseEndpointValues): FieldErrors<DatabaseEndpointValues> {
  const errors: FieldErrors<DatabaseEndpointValues> = {};
  const parsed = createEndpointSchema.safeParse(toDatabaseEndpointBody(values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // Only the allowlist is typed in; anything else (placement is a choice) is shown there too.
      addError(errors, issue.path[0] === 'internal' ? 'placement' : 'ipAllowlist', issue.message);
    }
  }
  return errors;
}

export const databaseEndpointResolver: Resolver<DatabaseEndpointValues> = async (values) => {
  const errors = databaseEndpointErrors(values);
  return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
};

/** The settings an existing endpoint can change (contract §5.9 PATCH /vhosts/:id). */
export interface EndpointSettingsValues {
  ipAllowlist: string;
  containerPort: string;
  /** A new header token; empty keeps the current one. */
  tokenHeader: string;
  removeTokenHeader: boolean;
  lbAlgorithm: LoadBalancingAlgorithm;
  shared: boolean;
}

export function settingsValuesOf(endpoint: Endpoint): EndpointSettingsValues {
  return {
    ipAllowlist: endpoint.ipWhitelist.join('\n'),
    containerPort: endpoint.containerPort,
    tokenHeader: '',
    removeTokenHeader: false,
    lbAlgorithm: (endpoint.lbAlgorithm as LoadBalancingAlgorithm) || DEFAULT_LOAD_BALANCING_ALGORITHM,
    shared: endpoint.shared,
  };
}

export function toUpdateBody(endpoint: Endpoint, values: EndpointSettingsValues): UpdateEndpointBody {
  const body: UpdateEndpointBody = {
    ip_whitelist: allowlistEntries(values.ipAllowlist),
    container_port: values.containerPort.trim() || null,
  };
  if (values.removeTokenHeader) body.token_header = null;
  else if (values.tokenHeader.trim()) body.token_header = values.tokenHeader.trim();
  if (endpoint.type === 'http' || endpoint.type === 'http_proxy_protocol') {
    body.load_balancing_algorithm_type = values.lbAlgorithm;
    body.shared = values.shared;
  }
  return body;
}

type SettingsField = keyof EndpointSettingsValues;

/** The settings form's problems: core's update schema, then its rules on the merged endpoint. */
export function endpointSettingsErrors(
  endpoint: Endpoint,
  values: EndpointSettingsValues,
): FieldErrors<EndpointSettingsValues> {
  const errors: FieldErrors<EndpointSettingsValues> = {};
  const body = toUpdateBody(endpoint, values);
  const parsed = updateEndpointSchema.safeParse(body);
  const fieldOf: Record<string, SettingsField> = {
    ip_whitelist: 'ipAllowlist',
    container_port: 'containerPort',
    token_header: 'tokenHeader',
    load_balancing_algorithm_type: 'lbAlgorithm',
    shared: 'shared',
  };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      addError(errors, fieldOf[String(issue.path[0])] ?? 'ipAllowlist', issue.message);
    }
  }
  const shared = body.shared ?? endpoint.shared;
  const problems = endpointSettingsProblems({
    type: endpoint.type,
    acme: endpoint.acme,
    default: endpoint.isDefault,
    shared,
    userDomain: endpoint.userDomain,
    // The settings never change the certificate; a custom endpoint has one already.
    hasCertificate: endpoint.certificateId !== null || (!endpoint.acme && !endpoint.isDefault),
    tokenHeader: body.token_header === undefined ? null : body.token_header,
    loadBalancingAlgorithm: body.load_balancing_algorithm_type ?? null,
  });
  for (const message of problems) {
    const field: SettingsField =
      message === endpointMessages.tokenHeaderCharacters || message === endpointMessages.tokenHeaderType
        ? 'tokenHeader'
        : message === endpointMessages.loadBalancingHttpOnly
          ? 'lbAlgorithm'
          : 'shared';
    addError(errors, field, message);
  }
  const conversion = sharedConversionProblem(endpoint.shared, body.shared);
  if (conversion) addError(errors, 'shared', conversion);
  return errors;
}
