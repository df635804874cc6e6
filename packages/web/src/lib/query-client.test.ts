import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { ConsoleQueryClient } from './query-client.ts';

/** A query whose answers the test releases one by one: each fetch reads the server's state when released. */
function heldQuery(client: QueryClient) {
  let serverState = 'before the write';
  const pending: (() => void)[] = [];
  let fetches = 0;
  const observer = new QueryObserver(client, {
    queryKey: ['pending-changes'],
    queryFn: () => {
      fetches += 1;
      return new Promise<string>((resolve) => pending.push(() => resolve(serverState)));
    },
    retry: false,
  });
  const unsubscribe = observer.subscribe(() => {});
  return {
    write: () => {
      serverState = 'after the write';
    },
    /** Answers the oldest fetch still waiting, with what the server held when it read (now). */
    answerNext: async () => {
      while (pending.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      pending.shift()?.();
    },
    fetches: () => fetches,
    data: () => client.getQueryData<string>(['pending-changes']),
    unsubscribe,
  };
}

describe('ConsoleQueryClient.invalidateQueries', () => {
  it('fetches again a query whose first fetch was in flight during the write, so the change shows', async () => {
    const client = new ConsoleQueryClient();
    const query = heldQuery(client);
    // The first fetch left before the write; the server reads it before the write lands.
    const reading = query.answerNext();
    query.write();
    const invalidated = client.invalidateQueries({ queryKey: ['pending-changes'] });
    await reading;
    await query.answerNext();
    await invalidated;
    expect(query.data()).toBe('after the write');
    expect(query.fetches()).toBe(2);
    query.unsubscribe();
  });

  it('is needed: TanStack Query alone keeps the first fetch’s answer from before the write', async () => {
    const client = new QueryClient();
    const query = heldQuery(client);
    const reading = query.answerNext();
    query.write();
    const invalidated = client.invalidateQueries({ queryKey: ['pending-changes'] });
    await reading;
    await invalidated;
    expect(query.data()).toBe('before the write');
    expect(query.fetches()).toBe(1);
    query.unsubscribe();
  });

  it('asks once when the query already had its answer, and not at all with refetchType none', async () => {
    const client = new ConsoleQueryClient();
    const query = heldQuery(client);
    await query.answerNext();
    await vi.waitFor(() => expect(query.data()).toBe('before the write'));
    const fetchesBefore = query.fetches();
    expect(fetchesBefore).toBe(1);
    query.write();
    const invalidated = client.invalidateQueries({ queryKey: ['pending-changes'] });
    await query.answerNext();
    await invalidated;
    expect(query.data()).toBe('after the write');
    expect(query.fetches()).toBe(fetchesBefore + 1);

    await client.invalidateQueries({ queryKey: ['pending-changes'], refetchType: 'none' });
    expect(query.fetches()).toBe(fetchesBefore + 1);
    query.unsubscribe();
  });
});
