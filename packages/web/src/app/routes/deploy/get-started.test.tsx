import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { environmentHal, stackHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

// spec 3 §2 /apps/{id}/get-started, status detection (issue 38): while it waits, a page of the guided
// deploy's first step with its heading, not a bare spinner.

describe('status detection (spec 3 "Guided app deployment")', () => {
  it('shows its heading and the steps while the app’s operations are read', async () => {
    signIn();
    mockServer({
      ...consoleRoutes({
        stacks: [{ ...stackHal({ id: '1', isDefault: true }), runtime: 'sim' }],
        environments: [environmentHal({ id: '10' })],
      }),
      'GET /api/apps/1': () => json(200, appResourceFixture({ id: '1', handle: 'shop' })),
      // Never answered: the page stays on its wait.
      'GET /api/apps/1/operations': () => new Promise<Response>(() => undefined),
    });
    renderApp('/apps/1/get-started');
    expect(await screen.findByRole('heading', { level: 1, name: 'Get Started' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'Deploy steps' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading your app' })).toBeInTheDocument();
  });
});
