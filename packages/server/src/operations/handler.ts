import type { ActionName, OperationBody, OperationResourceType, OperationTypeOf } from '@berth/core';
import type { EnvironmentRow } from '../api/environments/environments.hal.ts';
import type { Db, DbOrTx, Tx } from '../db/client.ts';
import type { DeliveryTls } from '../drains/log-delivery.ts';
import type { Runtime, RuntimeContext } from '../runtimes/runtime.ts';
import { RuntimeError } from '../runtimes/runtime.ts';
import type { SecretBox } from '../security/secret-box.ts';
import type { OperationRow } from './operations.hal.ts';

// What an operation type does on the server, in its life's order: read its request into the new
// operation (accept), change its resource as it is queued (onEnqueue), do the work (run), and record
// the end (Outcome.succeed, fail). The catalog in core says which types exist; handlers/ say what they do.

export interface HandlerContext extends RuntimeContext {
  op: OperationRow;
  /** For reads. A change while the operation runs goes through `write`, never straight to `db`. */
  db: Db;
  /**
   * Runs a change in a transaction that holds only while this worker still holds this attempt of the
   * operation; when it does not, nothing is changed and the run stops.
   */
  write<T>(change: (tx: Tx) => Promise<T>): Promise<T>;
  runtime: Runtime;
  /** Seals the secrets an operation creates (database passwords) before they are stored. */
  secrets: SecretBox;
  /** How log drain destinations are reached (provisioning checks they answer). */
  drainTls: DeliveryTls;
}

/** What running an operation produced: the changes to record when it ends. */
export interface Outcome {
  /** Applied in the transaction that marks the operation succeeded. */
  succeed(tx: Tx): Promise<void>;
}

/** The columns of a new operation that its request body fills. */
export interface OperationFields {
  gitRef?: string | null;
  dockerRef?: string | null;
  containerCount?: number | null;
  containerSize?: number | null;
  instanceProfile?: string | null;
  env?: Record<string, string | null> | null;
  diskSize?: number | null;
  provisionedIops?: number;
  parameters?: Record<string, string | number | boolean | null> | null;
}

/** What `accept` may ask about the request beyond its body: another environment the caller acts on. */
export interface AcceptContext {
  /** The environment, when the caller may take the action there (else 404 or 403, as everywhere). */
  environment(id: number | null, action: ActionName): Promise<EnvironmentRow>;
  db: Db;
}

/** A resource operations act on: a row that lives in an environment. */
export interface OperationTarget {
  id: number;
  environmentId: number;
}

export interface Handler<Row extends OperationTarget = OperationTarget, Body = unknown> {
  /** Reads the request's keys (already valid for the catalog's schema) into the operation; throws 422 to refuse. */
  accept?(body: Body, target: Row, request: AcceptContext): OperationFields | Promise<OperationFields>;
  /** Applied in the transaction that inserts the queued operation, whoever enqueues it. */
  onEnqueue?(tx: Tx, op: OperationRow): Promise<void>;
  run(ctx: HandlerContext): Promise<Outcome>;
  /** Applied in the transaction that marks the operation failed. */
  fail?(tx: Tx, op: OperationRow): Promise<void>;
}

/** A resource type of the catalog on the server: how to find one, and a handler for each of its types. */
export interface OperationResource<R extends OperationResourceType, Row extends OperationTarget> {
  /** What a 404 names when the resource is absent or out of the caller's reach. */
  notFound: string;
  /** The action that lets a caller see the resource (checked before the type's own). */
  readAction: ActionName;
  load(db: DbOrTx, id: number): Promise<Row | undefined>;
  /** How operation lists name the resource. */
  handle(row: Row): string;
  /** Why the resource takes no operation at the moment (a 422), or null. */
  refusal?(row: Row): string | null;
  handlers: { [T in OperationTypeOf<R>]: Handler<Row, OperationBody<R, T>> };
}

/** Logs why an operation cannot go on and gives the error that fails it (an expected failure, not a bug). */
export async function failure(ctx: RuntimeContext, message: string): Promise<RuntimeError> {
  await ctx.log(message, 'ERROR');
  return new RuntimeError(message);
}
