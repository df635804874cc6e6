import { DEFAULT_THEME, PERSISTED_KEYS, type PersistedKey, THEMES, type Theme } from '@berth/core';
import { useCallback, useSyncExternalStore } from 'react';

// spec 1 §3: the only client state that survives a reload, under exactly these localStorage keys.
// Strings are stored raw (theme, redirectPath); structured values as JSON.

export interface NavState {
  collapsed: boolean;
}

export interface FeedbackState {
  preDeploySurveyAnswered: boolean;
  freeformFeedbackGiven: boolean;
}

/** spec 1 §3: keyed "type-id" with a visit count and the last access time. */
export type ResourceStats = Record<string, { count: number; lastAccessed: string }>;

/** Dismissed notices: notice id to the ISO time it was dismissed. */
export type Notices = Record<string, string>;

export interface PersistedValues {
  theme: Theme;
  nav: NavState;
  redirectPath: string | null;
  feedback: FeedbackState;
  resourceStats: ResourceStats;
  notices: Notices;
}

interface Codec<T> {
  fallback: T;
  decode(raw: string): T | undefined;
  encode(value: T): string | null;
}

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

function recordOf<T>(raw: string, isEntry: (value: unknown) => value is T): Record<string, T> | undefined {
  const value = parseJson(raw);
  if (!isRecord(value)) return undefined;
  const result: Record<string, T> = {};
  for (const [key, entry] of Object.entries(value)) if (isEntry(entry)) result[key] = entry;
  return result;
}

function isStat(value: unknown): value is { count: number; lastAccessed: string } {
  return isRecord(value) && typeof value.count === 'number' && typeof value.lastAccessed === 'string';
}

const codecs: { [K in PersistedKey]: Codec<PersistedValues[K]> } = {
  theme: {
    fallback: DEFAULT_THEME,
    decode: (raw) => (THEMES as readonly string[]).find((theme) => theme === raw) as Theme | undefined,
    encode: (value) => value,
  },
  nav: {
    fallback: { collapsed: false },
    decode: (raw) => {
      const value = parseJson(raw);
      return isRecord(value) && typeof value.collapsed === 'boolean'
        ? { collapsed: value.collapsed }
        : undefined;
    },
    encode: (value) => JSON.stringify(value),
  },
  redirectPath: {
    fallback: null,
    decode: (raw) => (raw.startsWith('/') ? raw : undefined),
    encode: (value) => value,
  },
  feedback: {
    fallback: { preDeploySurveyAnswered: false, freeformFeedbackGiven: false },
    decode: (raw) => {
      const value = parseJson(raw);
      if (!isRecord(value)) return undefined;
      return {
        preDeploySurveyAnswered: value.preDeploySurveyAnswered === true,
        freeformFeedbackGiven: value.freeformFeedbackGiven === true,
      };
    },
    encode: (value) => JSON.stringify(value),
  },
  resourceStats: {
    fallback: {},
    decode: (raw) => recordOf(raw, isStat),
    encode: (value) => JSON.stringify(value),
  },
  notices: {
    fallback: {},
    decode: (raw) => recordOf(raw, (entry): entry is string => typeof entry === 'string'),
    encode: (value) => JSON.stringify(value),
  },
};

export const persistedKeys: readonly PersistedKey[] = PERSISTED_KEYS;

const listeners = new Map<PersistedKey, Set<() => void>>();
const snapshots = new Map<PersistedKey, { raw: string | null; value: unknown }>();

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    // Private modes may refuse storage: the console still works, it just forgets.
    return null;
  }
}

export function readPersisted<K extends PersistedKey>(key: K): PersistedValues[K] {
  const codec = codecs[key] as Codec<PersistedValues[K]>;
  const raw = storage()?.getItem(key) ?? null;
  // Hand out the same object for the same stored text, as useSyncExternalStore requires.
  const cached = snapshots.get(key);
  if (cached && cached.raw === raw) return cached.value as PersistedValues[K];
  const value = raw === null ? codec.fallback : (codec.decode(raw) ?? codec.fallback);
  snapshots.set(key, { raw, value });
  return value;
}

function notify(key: PersistedKey) {
  for (const listener of listeners.get(key) ?? []) listener();
}

export function writePersisted<K extends PersistedKey>(key: K, value: PersistedValues[K]): void {
  const codec = codecs[key] as Codec<PersistedValues[K]>;
  const encoded = codec.encode(value);
  const store = storage();
  if (store) {
    if (encoded === null) store.removeItem(key);
    else store.setItem(key, encoded);
  }
  notify(key);
}

export function removePersisted(key: PersistedKey): void {
  storage()?.removeItem(key);
  notify(key);
}

function subscribe(key: PersistedKey, listener: () => void): () => void {
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  // Another tab changed it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === key || event.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    set.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function usePersistedState<K extends PersistedKey>(
  key: K,
): [PersistedValues[K], (value: PersistedValues[K]) => void] {
  const value = useSyncExternalStore(
    useCallback((listener: () => void) => subscribe(key, listener), [key]),
    () => readPersisted(key),
    // The build's prerender (app/prerender.tsx) has no storage: every key reads its fallback there.
    () => readPersisted(key),
  );
  const setValue = useCallback((next: PersistedValues[K]) => writePersisted(key, next), [key]);
  return [value, setValue];
}
