import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { TEST_CONFIG, tokenHal } from '../../../../test/fixtures.ts';
import { fromTokenResource, sessionStore } from '../../../lib/session-store.ts';
import { useCreateCertificate } from './use-create-certificate.ts';

const api = (path: string) => `${TEST_CONFIG.apiUrl}${path}`;

describe('useCreateCertificate keeps no private key around (contract §4.3: private_key is sensitive)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    sessionStore.signIn(fromTokenResource(tokenHal()));
  });
  afterEach(() => vi.useRealTimers());

  it('leaves the mutation cache once the upload is done and nothing observes it', async () => {
    mockServer({
      'POST /api/accounts/10/certificates': () =>
        json(201, {
          _type: 'certificate',
          id: '12',
          _links: { self: { href: api('/certificates/12') }, account: { href: api('/accounts/10') } },
        }),
    });
    const queryClient = new QueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result, unmount } = renderHook(() => useCreateCertificate('10'), { wrapper });
    await act(() => result.current.mutateAsync({ certificate_body: 'CERT', private_key: 'SECRET-KEY' }));
    const cached = () => queryClient.getMutationCache().getAll();
    expect(cached()).toHaveLength(1);

    // The create flows reset the mutation (or leave the page) as soon as the upload succeeded.
    act(() => result.current.reset());
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(cached()).toEqual([]);
    expect(result.current.variables).toBeUndefined();
    unmount();
    expect(JSON.stringify(cached().map((mutation) => mutation.state))).not.toContain('SECRET-KEY');
  });
});
