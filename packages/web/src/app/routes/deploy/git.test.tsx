import { scopeDenialMessage } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, roleHal, stackHal } from '../../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

// spec 3 §2 /apps/{id}/git on each runtime (issue 38): a docker stack's real remote and the push to the
// scan branch; a simulated stack's Deploy button. The e2e suite runs on `sim` only, so the docker page
// is held here against the contract's answers.

const REMOTE = 'http://berth.test/git/production/shop.git';

function appHal(gitRepo: string) {
  return appResourceFixture({
    id: '1',
    handle: 'shop',
    git_repo: gitRepo,
    _embedded: { services: [], current_image: null, last_deploy_operation: null, last_operation: null },
  });
}

/** `scope`: the caller is a member with that scope alone on the environment (else an owner). */
function console(runtime: 'docker' | 'sim', options: { scope?: 'read' | 'deploy' } = {}) {
  signIn();
  const { calls } = mockServer({
    ...consoleRoutes({
      ...(options.scope
        ? { roles: [roleHal({ id: 'role-2', name: 'Members', type: 'platform_user' })] }
        : {}),
      stacks: [{ ...stackHal({ id: '1', isDefault: true }), runtime }],
      environments: [
        environmentHal({
          id: '10',
          permissions: options.scope ? [{ id: 'p1', scope: options.scope, roleId: 'role-2' }] : [],
        }),
      ],
    }),
    'GET /api/apps/1': () => json(200, appHal(runtime === 'docker' ? REMOTE : '')),
    'POST /api/apps/1/operations': () =>
      json(201, operationResourceFixture({ id: '77', type: 'scan_code', git_ref: 'berth-scan' })),
    'GET /api/operations/77': () =>
      json(200, operationResourceFixture({ id: '77', type: 'scan_code', status: 'succeeded' })),
    'GET /api/database_images': () => json(200, collection('database_images', [])),
    'GET /api/accounts/10/databases': () => json(200, collection('databases', [])),
    // The Deploying page the simulated deploy opens.
    'GET /api/apps/1/operations': () => json(200, collection('operations', [])),
  });
  return calls;
}

describe('the git page (spec 3 §2 /apps/{id}/git)', () => {
  it('on a docker stack, gives the remote and the push to the scan branch, then scans and configures', async () => {
    const calls = console('docker');
    const { router } = renderApp('/apps/1/git');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Push your code to Berth' }),
    ).toBeInTheDocument();
    expect(screen.getByText(`git remote add berth ${REMOTE}`)).toBeInTheDocument();
    expect(screen.getByText('git push berth main:berth-scan')).toBeInTheDocument();
    expect(screen.getByText('Waiting on your git push to continue…')).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Scan Code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/1/deploy/configure'));
    expect(router.state.location.search).toBe('?git_ref=berth-scan');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      type: 'scan_code',
      git_ref: 'berth-scan',
    });
  });

  it('on a simulated stack, deploys at once: no remote, a Deploy button', async () => {
    const calls = console('sim');
    const { router } = renderApp('/apps/1/git');
    expect(await screen.findByRole('heading', { level: 1, name: 'Deploy your Code' })).toBeInTheDocument();
    expect(screen.getByRole('note', { name: 'Simulated' })).toBeInTheDocument();
    expect(screen.queryByText(/git remote add/)).toBeNull();
    const deploy = screen.getByRole('button', { name: 'Deploy' });
    await waitFor(() => expect(deploy).toBeEnabled());
    await userEvent.setup().click(deploy);
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/1/deploy/status'));
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
        { type: 'deploy', git_ref: 'main' },
      ]),
    );
  });

  it('keeps Scan Code with the scope tooltip for a caller who may not deploy (spec 3 §2)', async () => {
    const calls = console('docker', { scope: 'read' });
    renderApp('/apps/1/git');
    const scan = await screen.findByRole('button', { name: 'Scan Code' });
    expect(scan).toHaveAttribute('aria-disabled', 'true');
    expect(scan).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('deploy', '10'), 'production'),
    );
    await userEvent.setup().click(scan);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('keeps Deploy with the sensitive tooltip for a deploy-only caller when the template makes databases', async () => {
    const calls = console('sim', { scope: 'deploy' });
    renderApp('/apps/1/git?template=express');
    const deploy = await screen.findByRole('button', { name: 'Deploy' });
    await waitFor(() => expect(deploy).toHaveAttribute('aria-disabled', 'true'));
    // Its databases' connection URLs are read with Sensitive Access (spec 2 §6): asked before anything is made.
    expect(deploy).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('sensitive', '10'), 'production'),
    );
    await userEvent.setup().click(deploy);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  it('lets a deploy-only caller deploy custom code, which makes no database', async () => {
    console('sim', { scope: 'deploy' });
    renderApp('/apps/1/git');
    const deploy = await screen.findByRole('button', { name: 'Deploy' });
    await waitFor(() => expect(deploy).toBeEnabled());
    expect(deploy).not.toHaveAttribute('aria-disabled');
  });
});
