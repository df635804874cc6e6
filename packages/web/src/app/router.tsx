import type { RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner.tsx';
import { RouteErrorBoundary } from './error-page.tsx';
import { RequireSession, RequireVerifiedUser } from './guards.tsx';
import { paths } from './paths.ts';
import { RootLayout } from './root-layout.tsx';

// Every screen is its own lazy chunk, so the login page ships only what it needs.
export const appRoutes: RouteObject[] = [
  {
    path: paths.root,
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: FullPageSpinner,
    children: [
      { path: paths.login, lazy: () => import('./routes/auth/login.tsx') },
      { path: paths.signup, lazy: () => import('./routes/auth/signup.tsx') },
      { path: paths.logout, lazy: () => import('./routes/auth/logout.tsx') },
      { path: paths.notFound, lazy: () => import('./routes/errors/not-found.tsx') },
      { path: paths.error, lazy: () => import('./routes/errors/error.tsx') },
      {
        Component: RequireSession,
        children: [
          { path: paths.verify, lazy: () => import('./routes/auth/verify.tsx') },
          { path: paths.verifyChallenge, lazy: () => import('./routes/auth/verify-challenge.tsx') },
          { path: paths.elevate, lazy: () => import('./routes/auth/elevate.tsx') },
          {
            Component: RequireVerifiedUser,
            children: [
              { path: paths.organizationsCreate, lazy: () => import('./routes/organizations/create.tsx') },
              { path: paths.organizationsPicker, lazy: () => import('./routes/organizations/picker.tsx') },
              {
                lazy: async () => ({ Component: (await import('./shell/app-shell.tsx')).AppShell }),
                children: [
                  { index: true, lazy: () => import('./routes/home/index-redirect.tsx') },
                  { path: paths.environments, lazy: () => import('./routes/environments/list.tsx') },
                  { path: paths.createEnvironment, lazy: () => import('./routes/environments/create.tsx') },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', lazy: () => import('./routes/errors/not-found.tsx') },
    ],
  },
];
