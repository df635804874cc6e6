import { CACHED_LIST_STALE_MS } from '@berth/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { appRoutes } from '../src/app/router.tsx';
import { ApiError } from '../src/lib/api-client.ts';
import { clearQueriesOnReset } from '../src/lib/query-client.ts';
import { fromTokenResource, sessionStore } from '../src/lib/session-store.ts';
import { tokenHal } from './fixtures.ts';

export function testQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, error) => !(error instanceof ApiError) && count < 1,
        staleTime: CACHED_LIST_STALE_MS,
      },
      mutations: { retry: false },
    },
  });
}

/** Renders the real route table at a path, as the browser would after boot. */
export function renderApp(path: string) {
  const queryClient = testQueryClient();
  clearQueriesOnReset(queryClient, sessionStore);
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** A component with the providers it needs, at a route path. */
export function renderWithProviders(element: ReactElement, path = '/') {
  const queryClient = testQueryClient();
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  return {
    ...render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    ),
    router,
    queryClient,
  };
}

export function signIn(options: Parameters<typeof tokenHal>[0] = {}) {
  sessionStore.signIn(fromTokenResource(tokenHal(options)));
}
