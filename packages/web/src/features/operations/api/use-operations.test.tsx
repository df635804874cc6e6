import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, tokenHal } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import { NO_OPERATION_FILTERS } from './operation-filters.ts';
import { useOperations } from './use-operations.ts';

describe('operation lists (issue 20: pages that stay true)', () => {
  it('read the resources on screen again when an operation they list has ended', async () => {
    sessionStore.signIn(fromTokenResource(tokenHal()));
    let status = 'running';
    mockServer({
      'GET /api/apps/1/operations': () =>
        json(200, collection('operations', [operationResourceFixture({ id: '9', type: 'deploy', status })])),
    });
    let appReads = 0;
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () => ({
        operations: useOperations('/apps/1/operations', 1, NO_OPERATION_FILTERS),
        // What a page header shows of the app.
        app: useQuery({
          queryKey: ['apps', 'detail', '1'],
          queryFn: async () => ++appReads,
          staleTime: 60_000,
        }),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.operations.data?.operations[0]?.status).toBe('running'));
    await waitFor(() => expect(appReads).toBe(1));
    // The next look finds the deploy over: the app is read again.
    status = 'succeeded';
    await act(() => result.current.operations.refetch());
    await waitFor(() => expect(appReads).toBe(2));
    // Nothing new ended: no more reads.
    await act(() => result.current.operations.refetch());
    expect(appReads).toBe(2);
  });
});
