import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { paths } from '../lib/paths.ts';
import { appRoutes } from './router.tsx';

/**
 * The pages a signed-out visitor opens first: the build renders them (packages/web/build/prerender.ts)
 * and the server sends each inside `<div id="root">`, so their form shows before any script has run.
 */
export const PRERENDERED_PATHS = [
  paths.login,
  paths.signup,
  paths.forgotPassword,
  // Opened from a mailed link, usually in a browser that has none of the console's files yet.
  paths.passwordUpdate,
  paths.otpResetVerify,
] as const;

/**
 * A path to render a route pattern at: each `:param` as a placeholder. These pages use their parameters
 * only when submitted, so the markup is the same for every link; the server sends it for the pattern.
 */
export function renderablePath(pattern: string): string {
  return pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? 'prerendered' : segment))
    .join('/');
}

/** One page's markup, rendered from the same routes and components the console runs. */
export async function prerender(pathname: string): Promise<string> {
  const handler = createStaticHandler(appRoutes);
  const context = await handler.query(new Request(new URL(renderablePath(pathname), 'http://berth.invalid')));
  if (context instanceof Response) throw new Error(`prerender: ${pathname} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <StrictMode>
      <QueryClientProvider client={new QueryClient()}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </QueryClientProvider>
    </StrictMode>,
  );
}
