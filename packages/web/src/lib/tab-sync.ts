import type { QueryClient } from '@tanstack/react-query';

/** What one tab tells the others of this browser: something changed, read what you show again. */
const CHANNEL = 'berth-changes';
const SETTLE_MS = 250;

interface ChannelLike {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: { data: unknown }) => void) | null;
}

const isFinished = (status: unknown) => status === 'succeeded' || status === 'failed';

/**
 * Issue 20, pages that stay true: when this tab changes something (any successful mutation) or sees an
 * operation end, the other tabs of this browser are told, and each reads again the queries on its screen
 * (a tab left on "Verify your email" sees the address verified in another; a list shows a teammate's
 * deploy once this browser has watched it end). Messages carry no data, only that something changed;
 * several within a quarter second make one refresh.
 */
export function syncTabs(
  queryClient: QueryClient,
  open: () => ChannelLike | null = () =>
    typeof BroadcastChannel === 'undefined' ? null : (new BroadcastChannel(CHANNEL) as ChannelLike),
): () => void {
  const channel = open();
  if (!channel) return () => {};
  let timer: ReturnType<typeof setTimeout> | null = null;
  channel.onmessage = (event) => {
    if ((event.data as { kind?: unknown } | null)?.kind !== 'changed') return;
    timer ??= setTimeout(() => {
      timer = null;
      void queryClient.invalidateQueries({ refetchType: 'active' });
    }, SETTLE_MS);
  };
  const tell = () => channel.postMessage({ kind: 'changed' });
  const stopMutations = queryClient.getMutationCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') tell();
  });
  const seenPending = new Set<string>();
  const stopQueries = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const [family, kind, id] = event.query.queryKey as unknown[];
    if (family !== 'operations' || kind !== 'detail' || typeof id !== 'string') return;
    const status = (event.query.state.data as { status?: unknown } | undefined)?.status;
    if (!isFinished(status)) seenPending.add(id);
    else if (seenPending.delete(id)) tell();
  });
  return () => {
    stopMutations();
    stopQueries();
    if (timer) clearTimeout(timer);
    channel.close();
  };
}
