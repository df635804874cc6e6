import { POLL_INTERVAL_MS } from '@berth/core';
import { focusManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, TEST_CONFIG, tokenHal } from '../../../../test/fixtures.ts';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import { useEndpoint } from './use-endpoint.ts';
import { useEndpoints } from './use-endpoints.ts';

const ENDPOINT_POLL_MS = POLL_INTERVAL_MS.endpoint;

const api = (path: string) => `${TEST_CONFIG.apiUrl}${path}`;
const vhost = (status: string) => ({
  _type: 'vhost',
  id: '7',
  type: 'http',
  status,
  default: true,
  virtual_domain: 'app-7.on-berth.localhost',
  _links: { self: { href: api('/vhosts/7') }, service: { href: api('/services/5') } },
});

function wrapper({ children }: { children: ReactNode }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

describe('endpoint polling (spec 2 §7, spec 3 §4: every 5 s, paused while hidden)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStore.signIn(fromTokenResource(tokenHal()));
  });
  afterEach(() => {
    focusManager.setFocused(undefined);
    vi.useRealTimers();
  });

  it('polls an app endpoint list every 5 s', async () => {
    const { callsTo } = mockServer({
      'GET /api/apps/1/vhosts': () => json(200, collection('vhosts', [vhost('provisioning')])),
    });
    renderHook(() => useEndpoints({ kind: 'app', id: '1' }), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(callsTo('GET', '/api/apps/1/vhosts')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS - 100));
    expect(callsTo('GET', '/api/apps/1/vhosts')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(100));
    expect(callsTo('GET', '/api/apps/1/vhosts')).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS));
    expect(callsTo('GET', '/api/apps/1/vhosts')).toHaveLength(3);
  });

  it('polls a single endpoint every 5 s and follows its status', async () => {
    const { callsTo } = mockServer({
      'GET /api/vhosts/7': [() => json(200, vhost('provisioning')), () => json(200, vhost('provisioned'))],
    });
    const { result } = renderHook(() => useEndpoint('7'), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.data?.status).toBe('provisioning');
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS));
    expect(callsTo('GET', '/api/vhosts/7')).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current.data?.status).toBe('provisioned');
  });

  it('pauses while the browser tab is hidden and resumes when visible', async () => {
    const { callsTo } = mockServer({
      'GET /api/accounts/10/vhosts': () => json(200, collection('vhosts', [])),
    });
    renderHook(() => useEndpoints({ kind: 'environment', id: '10' }), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(callsTo('GET', '/api/accounts/10/vhosts')).toHaveLength(1);
    act(() => focusManager.setFocused(false));
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS * 3));
    expect(callsTo('GET', '/api/accounts/10/vhosts')).toHaveLength(1);
    act(() => focusManager.setFocused(true));
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS));
    expect(callsTo('GET', '/api/accounts/10/vhosts').length).toBeGreaterThan(1);
  });

  it('does not poll the start-up list', async () => {
    const { callsTo } = mockServer({ 'GET /api/vhosts': () => json(200, collection('vhosts', [])) });
    renderHook(() => useEndpoints({ kind: 'all' }, { poll: false }), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS * 3));
    expect(callsTo('GET', '/api/vhosts')).toHaveLength(1);
  });

  it('never polls the global /vhosts list, and refetches it when revisited after 60 s (contract §1.13)', async () => {
    const { callsTo } = mockServer({ 'GET /api/vhosts': () => json(200, collection('vhosts', [])) });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
    const shared = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    // The /endpoints page asks without options: the global list ignores the default poll.
    const first = renderHook(() => useEndpoints({ kind: 'all' }), { wrapper: shared });
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS * 6));
    expect(callsTo('GET', '/api/vhosts')).toHaveLength(1);
    first.unmount();
    // Revisited within 60 s: read from the cache.
    const second = renderHook(() => useEndpoints({ kind: 'all' }), { wrapper: shared });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(callsTo('GET', '/api/vhosts')).toHaveLength(1);
    second.unmount();
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    // Revisited after 60 s: asked again, once.
    renderHook(() => useEndpoints({ kind: 'all' }), { wrapper: shared });
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS * 3));
    expect(callsTo('GET', '/api/vhosts')).toHaveLength(2);
  });

  it('polls the environment tab list every 5 s (spec 2 §7)', async () => {
    const { callsTo } = mockServer({
      'GET /api/accounts/10/vhosts': () => json(200, collection('vhosts', [])),
    });
    renderHook(() => useEndpoints({ kind: 'environment', id: '10' }), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    await act(() => vi.advanceTimersByTimeAsync(ENDPOINT_POLL_MS * 2));
    expect(callsTo('GET', '/api/accounts/10/vhosts')).toHaveLength(3);
  });
});
