import type Docker from 'dockerode';

// What changes in a Swarm, as it happens: the manager's Engine API `/events` stream, filtered to nodes and
// services (only managers report these). The edge follows tasks as they move and Berth records a node that
// is lost from these changes; a periodic pass catches whatever a gap in the stream missed. The stream ends
// when the manager restarts or the connection drops: the watcher connects again after a pause that doubles
// up to a cap, and asks for the events since the last one it saw, so that a short gap loses nothing.

/** A value's change as the engine reports it on an update (`state.old`, `state.new`, …). */
export type Transition = { from: string | null; to: string };

export type SwarmNodeChange = {
  kind: 'node';
  action: 'create' | 'update' | 'remove';
  nodeId: string;
  hostname: string | null;
  /** The node's state (ready, down, unknown, disconnected), when it changed. */
  state?: Transition;
  /** active, pause or drain, when it changed. */
  availability?: Transition;
  /** worker or manager, when it changed. */
  role?: Transition;
  at: Date;
};

export type SwarmServiceChange = {
  kind: 'service';
  action: 'create' | 'update' | 'remove';
  serviceId: string;
  name: string | null;
  /** A roll-out's state (updating, paused, completed, rollback_started, …), when it changed. */
  updateState?: Transition;
  replicas?: Transition;
  image?: Transition;
  at: Date;
};

export type SwarmChange = SwarmNodeChange | SwarmServiceChange;

export type SwarmWatchStatus =
  | { connected: true }
  | { connected: false; error: string | null; retryInMs: number };

export type SwarmWatchOptions = {
  /** Ends the watch (the promise resolves). */
  signal: AbortSignal;
  /** Told when the stream connects, and when it ended or failed and when it is tried again. */
  onStatus?: (status: SwarmWatchStatus) => void;
  /** Told when onChange threw (the watch goes on). */
  onError?: (error: unknown) => void;
  /** The pause before connecting again: starts at initialMs (1 s), doubles, never above maxMs (30 s). */
  backoff?: { initialMs?: number; maxMs?: number };
};

const ACTIONS = new Set(['create', 'update', 'remove']);
/** A line of the stream is one event, a few hundred bytes: a longer one is not the engine talking. */
const MAX_LINE_BYTES = 1024 * 1024;
const MAX_VALUE_LENGTH = 512;

type EngineEvent = {
  Type?: unknown;
  Action?: unknown;
  Actor?: { ID?: unknown; Attributes?: Record<string, unknown> };
  time?: unknown;
  timeNano?: unknown;
};

/**
 * Follows the Swarm's node and service changes on `manager` until `signal` aborts; resolves then. Never
 * rejects: a stream that ends or fails is connected again after a capped exponential back-off.
 */
export async function watchSwarmChanges(
  manager: Docker,
  onChange: (change: SwarmChange) => void,
  options: SwarmWatchOptions,
): Promise<void> {
  const { signal } = options;
  const initialMs = options.backoff?.initialMs ?? 1000;
  const maxMs = Math.max(initialMs, options.backoff?.maxMs ?? 30_000);
  const seen = new SeenEvents();
  let delay = initialMs;
  while (!signal.aborted) {
    const started = Date.now();
    const outcome = await followOnce(manager, seen, options, (change) => {
      try {
        onChange(change);
      } catch (error) {
        options.onError?.(error);
      }
    });
    if (signal.aborted) break;
    // A stream that worked for a while starts the back-off again; one that keeps failing waits longer each time.
    if (outcome.delivered > 0 || Date.now() - started >= maxMs) delay = initialMs;
    options.onStatus?.({ connected: false, error: outcome.error, retryInMs: delay });
    await pause(delay, signal);
    delay = Math.min(delay * 2, maxMs);
  }
}

/** True for a change that says a node stopped answering. */
export function isNodeLost(change: SwarmChange): change is SwarmNodeChange {
  return change.kind === 'node' && change.state?.to === 'down';
}

/**
 * The events already told, by time: a reconnection asks for events since the last one's second and would
 * repeat those of that second. (timeNano is beyond a double's precision: events close together may share
 * one value, so the events at the latest value are also kept by identity.)
 */
class SeenEvents {
  lastNano = 0;
  lastSecond: number | null = null;
  private atLast = new Set<string>();

  isNew(nano: number, key: string): boolean {
    if (nano < this.lastNano) return false;
    if (nano === this.lastNano) return !this.atLast.has(key);
    return true;
  }

  record(nano: number, second: number, key: string) {
    if (nano > this.lastNano) {
      this.lastNano = nano;
      this.atLast = new Set();
    }
    this.atLast.add(key);
    this.lastSecond = second;
  }
}

/** One connection to the stream, until it ends, fails or the watch is aborted. */
async function followOnce(
  manager: Docker,
  seen: SeenEvents,
  options: SwarmWatchOptions,
  tell: (change: SwarmChange) => void,
): Promise<{ delivered: number; error: string | null }> {
  const { signal } = options;
  let stream: NodeJS.ReadableStream & { destroy?: (error?: Error) => void };
  try {
    stream = (await manager.getEvents({
      filters: { type: ['node', 'service'] },
      ...(seen.lastSecond === null ? {} : { since: seen.lastSecond }),
    })) as typeof stream;
  } catch (error) {
    return { delivered: 0, error: messageOf(error) };
  }
  options.onStatus?.({ connected: true });
  let delivered = 0;
  return new Promise((resolve) => {
    let pending = '';
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      stream.destroy?.();
      resolve({ delivered, error });
    };
    const onAbort = () => finish(null);
    signal.addEventListener('abort', onAbort);
    if (signal.aborted) return finish(null);
    stream.on('data', (chunk: Buffer | string) => {
      pending += chunk.toString();
      let newline = pending.indexOf('\n');
      while (newline >= 0) {
        const line = pending.slice(0, newline).trim();
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
        if (!line) continue;
        const change = parseEvent(line, seen);
        if (change) {
          delivered += 1;
          tell(change);
        }
      }
      if (pending.length > MAX_LINE_BYTES) finish('the event stream sent a line longer than 1 MiB');
    });
    stream.on('end', () => finish('the event stream ended'));
    stream.on('close', () => finish('the event stream closed'));
    stream.on('error', (error: unknown) => finish(messageOf(error)));
  });
}

/** One line of the stream as a change, or null (not JSON, another type, or already told). */
function parseEvent(line: string, seen: SeenEvents): SwarmChange | null {
  let event: EngineEvent;
  try {
    event = JSON.parse(line) as EngineEvent;
  } catch {
    return null;
  }
  const type = event.Type;
  const action = event.Action;
  const id = text(event.Actor?.ID);
  if ((type !== 'node' && type !== 'service') || typeof action !== 'string' || !ACTIONS.has(action) || !id)
    return null;
  const nano = typeof event.timeNano === 'number' ? event.timeNano : 0;
  const second = typeof event.time === 'number' ? event.time : Math.floor(nano / 1e9);
  // A repeated event is the same line again.
  const key = line;
  if (!seen.isNew(nano, key)) return null;
  seen.record(nano, second, key);
  const attributes = event.Actor?.Attributes ?? {};
  const at = new Date(nano ? nano / 1e6 : second * 1000);
  const transition = (name: string): Transition | undefined => {
    const to = text(attributes[`${name}.new`]);
    return to === null ? undefined : { from: text(attributes[`${name}.old`]), to };
  };
  const name = text(attributes.name);
  if (type === 'node')
    return withDefined<SwarmNodeChange>({
      kind: 'node',
      action: action as SwarmNodeChange['action'],
      nodeId: id,
      hostname: name,
      state: transition('state'),
      availability: transition('availability'),
      role: transition('role'),
      at,
    });
  return withDefined<SwarmServiceChange>({
    kind: 'service',
    action: action as SwarmServiceChange['action'],
    serviceId: id,
    name,
    updateState: transition('updatestate'),
    replicas: transition('replicas'),
    image: transition('image'),
    at,
  });
}

/** The object without its undefined fields (a change holds only what changed). */
function withDefined<T extends object>(value: { [K in keyof T]+?: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, MAX_VALUE_LENGTH) : null;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
