import { isOperationResourceType, type OperationResourceType, operationTypeEntry } from '@berth/core';
import type {
  AcceptContext,
  Handler,
  OperationFields,
  OperationResource,
  OperationTarget,
} from '../handler.ts';
import { accountOperations } from './account.ts';
import { appOperations } from './app.ts';
import { backupOperations } from './backup.ts';
import { databaseOperations } from './database.ts';
import { logDrainOperations } from './log-drain.ts';
import { metricDrainOperations } from './metric-drain.ts';
import { serviceOperations } from './service.ts';
import { vhostOperations } from './vhost.ts';

/** Each resource type of core's operation catalog, with the handlers of its types (checked by the compiler). */
const RESOURCES = {
  app: appOperations,
  service: serviceOperations,
  vhost: vhostOperations,
  database: databaseOperations,
  backup: backupOperations,
  log_drain: logDrainOperations,
  metric_drain: metricDrainOperations,
  account: accountOperations,
} satisfies { [R in OperationResourceType]: unknown };

/**
 * A resource seen without its row and body types, for code that serves every resource alike (the
 * operations service, the worker). Each handler reads only rows of its own resource and bodies its
 * catalog schema accepted, which is what the service hands it.
 */
export interface AnyOperationResource {
  notFound: string;
  readAction: OperationResource<OperationResourceType, OperationTarget>['readAction'];
  load: OperationResource<OperationResourceType, OperationTarget>['load'];
  handle(row: OperationTarget): string;
  refusal?(row: OperationTarget): string | null;
  handler(type: string): AnyHandler | undefined;
}

export interface AnyHandler extends Omit<Handler, 'accept'> {
  accept?(
    body: unknown,
    target: OperationTarget,
    request: AcceptContext,
  ): OperationFields | Promise<OperationFields>;
}

export function operationResource(resourceType: OperationResourceType): AnyOperationResource {
  const resource = RESOURCES[resourceType] as unknown as OperationResource<
    OperationResourceType,
    OperationTarget
  > & { handlers: Record<string, AnyHandler> };
  return {
    notFound: resource.notFound,
    readAction: resource.readAction,
    load: (db, id) => resource.load(db, id),
    handle: (row) => resource.handle(row),
    refusal: (row) => resource.refusal?.(row) ?? null,
    // Only types of the catalog: a name from a request never reaches an inherited property.
    handler: (type) => (operationTypeEntry(resourceType, type) ? resource.handlers[type] : undefined),
  };
}

/** The handler of an operation row's type, if this server knows it. */
export function handlerFor(resourceType: string, type: string): AnyHandler | undefined {
  return isOperationResourceType(resourceType) ? operationResource(resourceType).handler(type) : undefined;
}
