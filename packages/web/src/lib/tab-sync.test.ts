import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { syncTabs } from './tab-sync.ts';

/** Two tabs' ends of one channel. */
function channelPair() {
  type End = {
    postMessage(message: unknown): void;
    close(): void;
    onmessage: ((event: { data: unknown }) => void) | null;
  };
  const ends: End[] = [];
  const make = (): End => {
    const end: End = {
      onmessage: null,
      postMessage: (message) => {
        for (const other of ends) if (other !== end) other.onmessage?.({ data: message });
      },
      close: () => undefined,
    };
    ends.push(end);
    return end;
  };
  return { make };
}

describe('tabs of one browser (issue 20)', () => {
  it('tells the other tabs of a change, which read again what they show', async () => {
    vi.useFakeTimers();
    try {
      const pair = channelPair();
      const here = new QueryClient();
      const there = new QueryClient();
      syncTabs(here, pair.make);
      syncTabs(there, pair.make);
      const invalidate = vi.spyOn(there, 'invalidateQueries');

      // A mutation that succeeds here.
      await here
        .getMutationCache()
        .build(here, { mutationFn: async () => 'ok' })
        .execute(undefined);
      // An operation this tab watched end.
      here.setQueryData(['operations', 'detail', '7'], { status: 'running' });
      here.setQueryData(['operations', 'detail', '7'], { status: 'succeeded' });
      // One that was already over when first seen says nothing new.
      here.setQueryData(['operations', 'detail', '8'], { status: 'failed' });
      await vi.advanceTimersByTimeAsync(300);
      // Several messages in a quarter second make one refresh, of the queries on screen.
      expect(invalidate).toHaveBeenCalledTimes(1);
      expect(invalidate).toHaveBeenCalledWith({ refetchType: 'active' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('listens to nothing where the browser has no channels', () => {
    const client = new QueryClient();
    syncTabs(client, () => null);
    expect(client.getMutationCache().hasListeners()).toBe(false);
    expect(client.getQueryCache().hasListeners()).toBe(false);
  });
});
