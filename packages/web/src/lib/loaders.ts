// spec 1 §4 "Loaders": idle, loading, success, error. A combined loader is loading first, then error
// (messages joined with commas), then success, then idle.

export type LoaderStatus = 'idle' | 'loading' | 'success' | 'error';

export interface Loader {
  status: LoaderStatus;
  message: string;
}

export interface QueryLike {
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
  fetchStatus: 'fetching' | 'paused' | 'idle';
  error: Error | null;
}

export function loaderOf(query: QueryLike): Loader {
  if (query.isError) return { status: 'error', message: query.error?.message ?? '' };
  if (query.isSuccess) return { status: 'success', message: '' };
  // A disabled query is pending but not fetching: nothing is being loaded.
  if (query.isPending && query.fetchStatus !== 'idle') return { status: 'loading', message: '' };
  return { status: 'idle', message: '' };
}

export function combineLoaders(loaders: readonly Loader[]): Loader {
  if (loaders.some((loader) => loader.status === 'loading')) return { status: 'loading', message: '' };
  const errors = loaders.filter((loader) => loader.status === 'error');
  if (errors.length) return { status: 'error', message: errors.map((loader) => loader.message).join(', ') };
  if (loaders.some((loader) => loader.status === 'success')) return { status: 'success', message: '' };
  return { status: 'idle', message: '' };
}
