import { type HalResource, idOf } from '../../../lib/hal.ts';

// The few fields of an environment's apps and operations its detail page lists. The apps and activity
// features own the full shapes; these stay minimal so the environment feature imports neither.

/** contract §4.3 app, as far as the environment's Apps tab reads it. */
export interface EnvironmentAppHal extends HalResource {
  handle: string;
  _embedded?: { services?: unknown[] | null };
}

export interface EnvironmentApp {
  id: string;
  handle: string;
  serviceCount: number;
}

export function fromEnvironmentAppHal(app: EnvironmentAppHal): EnvironmentApp {
  return { id: idOf(app), handle: app.handle ?? '', serviceCount: app._embedded?.services?.length ?? 0 };
}

/** contract §4.3 operation, as far as the environment's Activity tab reads it. */
export interface EnvironmentOperationHal extends HalResource {
  type: string;
  status: string;
  resource_type?: string;
  resource_handle?: string;
  user_name?: string;
  user_email?: string;
  created_at?: string;
}

export interface EnvironmentOperation {
  id: string;
  type: string;
  status: string;
  resource: string;
  user: string;
  createdAt: string;
}

export function fromEnvironmentOperationHal(operation: EnvironmentOperationHal): EnvironmentOperation {
  const resource = [operation.resource_type, operation.resource_handle].filter(Boolean).join(' ');
  return {
    id: idOf(operation),
    type: operation.type,
    status: operation.status,
    resource,
    user: operation.user_name || operation.user_email || '',
    createdAt: operation.created_at ?? '',
  };
}
