import { MAX_PAGES, POLL_INTERVAL_MS } from '@berth/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { errorBody, TEST_CONFIG, tokenHal } from '../../../../test/fixtures.ts';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import { useEnvironmentCertificates } from './use-environment-certificates.ts';

const api = (path: string) => `${TEST_CONFIG.apiUrl}${path}`;
const certificate = (id: string) => ({
  _type: 'certificate',
  id,
  common_name: `site-${id}.example.com`,
  _links: { self: { href: api(`/certificates/${id}`) }, account: { href: api('/accounts/10') } },
});
const page = (ids: string[], total: number, current = 1) => ({
  _embedded: { certificates: ids.map(certificate) },
  _links: {},
  current_page: current,
  per_page: 2,
  total_count: total,
});

function wrapper({ children }: { children: ReactNode }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

describe('useEnvironmentCertificates (contract §1.4 auto-paged, spec 2 §7 5 s poll)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStore.signIn(fromTokenResource(tokenHal()));
  });
  afterEach(() => vi.useRealTimers());

  it('reads every page, then polls every 5 s', async () => {
    const { calls } = mockServer({
      'GET /api/accounts/10/certificates?page=1': () => json(200, page(['1', '2'], 5)),
      'GET /api/accounts/10/certificates?page=2': () => json(200, page(['3', '4'], 5)),
      'GET /api/accounts/10/certificates?page=3': () => json(200, page(['5'], 5)),
    });
    const { result } = renderHook(() => useEnvironmentCertificates('10'), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.data?.map((item) => item.commonName)).toEqual([
      'site-1.example.com',
      'site-2.example.com',
      'site-3.example.com',
      'site-4.example.com',
      'site-5.example.com',
    ]);
    expect(calls).toHaveLength(3);
    await act(() => vi.advanceTimersByTimeAsync(POLL_INTERVAL_MS.certificate));
    expect(calls).toHaveLength(6);
  });

  it('fails with the server message when a later page fails', async () => {
    mockServer({
      'GET /api/accounts/10/certificates?page=1': () => json(200, page(['1', '2'], 5)),
      'GET /api/accounts/10/certificates?page=2': () =>
        json(500, errorBody(500, 'internal_server_error', 'The certificate store is unavailable')),
      'GET /api/accounts/10/certificates?page=3': () => json(200, page(['5'], 5, 3)),
    });
    const { result } = renderHook(() => useEnvironmentCertificates('10', { poll: false }), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(result.current.isError).toBe(true);
    expect(result.current.error?.message).toBe('The certificate store is unavailable');
    expect(result.current.data).toBeUndefined();
  });

  it(`reads at most ${MAX_PAGES} pages (spec 1 §9 pagination cap)`, async () => {
    const { calls } = mockServer({
      'GET /api/accounts/10/certificates': (call) => {
        const current = Number(new URL(call.path, 'https://x.test').searchParams.get('page'));
        return json(200, page([`${current}a`, `${current}b`], 1000, current));
      },
    });
    const { result } = renderHook(() => useEnvironmentCertificates('10', { poll: false }), { wrapper });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(MAX_PAGES).toBe(50);
    expect(calls.map((call) => call.path)).toEqual(
      Array.from({ length: MAX_PAGES }, (_, index) => `/api/accounts/10/certificates?page=${index + 1}`),
    );
    expect(result.current.data).toHaveLength(MAX_PAGES * 2);
  });
});
