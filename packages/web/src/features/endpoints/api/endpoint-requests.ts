import { type OperationResource, type OperationTypeOf, operationRequest, operationsPath } from '@berth/core';
import { apiRequest } from '../../../lib/api-client.ts';
import { idOf } from '../../../lib/hal.ts';

/** contract §5.9 POST /services/:id/vhosts: the record only; the console then posts `provision`. */
export interface CreateEndpointBody {
  /** http or grpc for an app; a database endpoint is tcp. */
  type: 'http' | 'grpc' | 'tcp';
  platform: 'alb' | 'elb';
  acme: boolean;
  default: boolean;
  internal: boolean;
  ip_whitelist: string[];
  container_port?: string;
  token_header?: string;
  /** The absolute api URL of the certificate (contract §1.9). */
  certificate?: string;
  user_domain?: string;
  load_balancing_algorithm_type?: string;
  shared?: boolean;
}

/** contract §5.9 PATCH /vhosts/:id: the editable fields; the console then posts `provision`. */
export interface UpdateEndpointBody {
  ip_whitelist: string[];
  container_port: string | null;
  token_header?: string | null;
  load_balancing_algorithm_type?: string;
  shared?: boolean;
}

/** contract §6: the operations an endpoint takes (core's catalog). */
export type EndpointOperationType = OperationTypeOf<'vhost'>;

export interface StartedOperation {
  id: string;
  type: string;
  status: string;
}

/** contract §5.9 POST /vhosts/:id/operations {type}: answers the queued operation. */
export async function startEndpointOperation(
  endpointId: string,
  type: EndpointOperationType,
): Promise<StartedOperation> {
  const operation = await apiRequest<OperationResource>('api', operationsPath('vhost', endpointId), {
    method: 'POST',
    body: operationRequest('vhost', type),
  });
  return { id: idOf(operation), type: operation.type, status: operation.status };
}
