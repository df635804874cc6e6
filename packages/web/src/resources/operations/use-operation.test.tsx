import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { json, mockServer } from '../../../test/fetch-mock.ts';
import { errorBody, TEST_CONFIG, tokenHal } from '../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../test/operation-fixtures.ts';
import { fromTokenResource, sessionStore } from '../../lib/session-store.ts';
import { operationKeys } from './operation-keys.ts';
import { useOperation } from './use-operation.ts';

const api = (path: string) => `${TEST_CONFIG.apiUrl}${path}`;
const operation = (type: string, status: string) =>
  operationResourceFixture({
    id: '5',
    type,
    status,
    resource_type: 'app',
    resource_id: '7',
    resource_handle: 'web',
    _links: { account: { href: api('/accounts/10') } },
  });

function setup() {
  sessionStore.signIn(fromTokenResource(tokenHal()));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  return { queryClient, wrapper };
}

describe('useOperation (spec 2 §4)', () => {
  it('counts a 404 while waiting on a deprovision as succeeded', async () => {
    mockServer({
      'GET /api/operations/5': [
        () => json(200, operation('deprovision', 'running')),
        () => json(404, errorBody(404, 'not_found', 'Operation not found')),
      ],
    });
    const { queryClient, wrapper } = setup();
    const { result } = renderHook(() => useOperation('5'), { wrapper });
    await waitFor(() => expect(result.current.data?.status).toBe('running'));
    await queryClient.refetchQueries({ queryKey: operationKeys.detail('5') });
    await waitFor(() => expect(result.current.data?.status).toBe('succeeded'));
    expect(result.current.isError).toBe(false);
  });

  it('counts a 404 as succeeded when the caller follows a deprovision it started, even at once', async () => {
    mockServer({
      'GET /api/operations/5': () => json(404, errorBody(404, 'not_found', 'Operation not found')),
    });
    const { wrapper } = setup();
    const { result } = renderHook(() => useOperation('5', { deprovision: true }), { wrapper });
    await waitFor(() => expect(result.current.data?.status).toBe('succeeded'));
    expect(result.current.data?.type).toBe('deprovision');
    expect(result.current.isError).toBe(false);
  });

  it('keeps a 404 an error for other operations (the next 3 s poll fails)', async () => {
    mockServer({
      'GET /api/operations/5': [
        () => json(200, operation('deploy', 'running')),
        () => json(404, errorBody(404, 'not_found', 'Operation not found')),
      ],
    });
    const { wrapper } = setup();
    const { result } = renderHook(() => useOperation('5'), { wrapper });
    await waitFor(() => expect(result.current.data?.status).toBe('running'));
    await waitFor(() => expect(result.current.error?.message).toBe('Operation not found'), { timeout: 5000 });
  });
});
