import { scopeDenialMessage } from '@berth/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { databaseResourceFixture } from '../../../../test/database-fixtures.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal, roleHal, stackHal } from '../../../../test/fixtures.ts';
import { type OperationFixture, operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { guidedDeployKeys } from '../../../features/guided-deploy/api/guided-deploy-keys.ts';

// spec 3 §2 /apps/{id}/deploy/status (issue 38): the Deploying page of an app that never deployed, its
// announced outcome, and Redeploy of what was deployed, for whom it may run.

const IMAGE = 'quay.io/berth/shop:1.2';

function appHal() {
  return appResourceFixture({
    id: '1',
    handle: 'shop',
    _embedded: { services: [], current_image: null, last_deploy_operation: null, last_operation: null },
  });
}

function deployHal(fields: OperationFixture) {
  return operationResourceFixture({ id: '50', type: 'deploy', ...fields });
}

function console(
  options: {
    /** The app's deploy as the page reads it, answer after answer (the list shows the first). */
    deploys?: OperationFixture[];
    databases?: ReturnType<typeof databaseResourceFixture>[];
    deployOnly?: boolean;
  } = {},
) {
  signIn();
  const deploys = options.deploys ?? [];
  const { calls } = mockServer({
    ...consoleRoutes({
      ...(options.deployOnly
        ? { roles: [roleHal({ id: 'role-2', name: 'Deployers', type: 'platform_user' })] }
        : {}),
      stacks: [{ ...stackHal({ id: '1', isDefault: true }), runtime: 'sim' }],
      environments: [
        environmentHal({
          id: '10',
          permissions: options.deployOnly ? [{ id: 'p1', scope: 'deploy', roleId: 'role-2' }] : [],
        }),
      ],
    }),
    'GET /api/apps/1': () => json(200, appHal()),
    'GET /api/apps/1/operations': () =>
      json(200, collection('operations', deploys.length ? [deployHal(deploys[0] ?? {})] : [])),
    'GET /api/operations/50': deploys.map((answer) => () => json(200, deployHal(answer))),
    'GET /api/accounts/10/databases': () => json(200, collection('databases', options.databases ?? [])),
    'POST /api/apps/1/operations': () => json(201, deployHal({ id: '51', status: 'queued' })),
    'GET /api/operations/51': () => json(200, deployHal({ id: '51', status: 'queued' })),
    // Where status detection sends an app that never deployed.
    'GET /api/database_images': () => json(200, collection('database_images', [])),
  });
  return calls;
}

describe('the Deploying page (spec 3 §2 /apps/{id}/deploy/status)', () => {
  it('sends an app that never deployed on through status detection, not to a "Deploying" that never ends', async () => {
    console();
    const { router } = renderApp('/apps/1/deploy/status');
    await waitFor(() => expect(router.state.location.pathname).toBe('/apps/1/git'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Deploy your Code' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: 'Deploying' })).toBeNull();
  });

  it('announces the outcome in a live region when the deploy ends', async () => {
    console({ deploys: [{ status: 'running' }, { status: 'failed' }] });
    renderApp('/apps/1/deploy/status');
    expect(await screen.findByRole('heading', { level: 1, name: 'Deploying' })).toBeInTheDocument();
    const announcement = () =>
      screen.queryAllByRole('status').find((region) => region.textContent?.startsWith('Deployment Failed'));
    expect(announcement()).toBeUndefined();
    await waitFor(() => expect(announcement()).toBeDefined(), { timeout: 8_000 });
    expect(announcement()).toHaveTextContent(
      'Deployment Failed. Don’t worry! Edit your configuration or push your code again to redeploy.',
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Deployment Failed' })).toBeInTheDocument();
  }, 15_000);

  it('redeploys the image an image deploy deployed, not a git ref', async () => {
    const calls = console({ deploys: [{ status: 'failed', git_ref: null, docker_ref: IMAGE }] });
    renderApp('/apps/1/deploy/status');
    const redeploy = await screen.findByRole('button', { name: 'Redeploy' });
    await userEvent.setup().click(redeploy);
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'POST').map((call) => call.body)).toEqual([
        { type: 'deploy', docker_image: IMAGE },
      ]),
    );
  });

  it('keeps Redeploy with the sensitive tooltip for a deploy-only caller whose app has databases', async () => {
    const calls = console({
      deployOnly: true,
      deploys: [{ status: 'failed', git_ref: 'main' }],
      databases: [databaseResourceFixture({ id: '7', handle: 'shop-postgresql', type: 'postgresql' })],
    });
    renderApp('/apps/1/deploy/status');
    const redeploy = await screen.findByRole('button', { name: 'Redeploy' });
    await waitFor(() => expect(redeploy).toHaveAttribute('aria-disabled', 'true'));
    expect(redeploy).toHaveAccessibleDescription(
      deniedDescription(scopeDenialMessage('sensitive', '10'), 'production'),
    );
    await userEvent.setup().click(redeploy);
    expect(calls.filter((call) => call.method === 'POST')).toEqual([]);
  });
  it('follows the deploy Redeploy starts after a failed preparation, not that failure', async () => {
    signIn();
    let redeployed = false;
    const calls = mockServer({
      ...consoleRoutes({
        stacks: [{ ...stackHal({ id: '1', isDefault: true }), runtime: 'sim' }],
        environments: [environmentHal({ id: '10' })],
      }),
      'GET /api/apps/1': () => json(200, appHal()),
      // The earlier deploy, then (once Redeploy asked for it) the new one, newest first.
      'GET /api/apps/1/operations': () =>
        json(
          200,
          collection(
            'operations',
            redeployed
              ? [
                  deployHal({ id: '51', status: 'succeeded', git_ref: 'main' }),
                  deployHal({ status: 'succeeded', git_ref: 'main' }),
                ]
              : [deployHal({ status: 'succeeded', git_ref: 'main' })],
          ),
        ),
      'GET /api/operations/50': () => json(200, deployHal({ status: 'succeeded', git_ref: 'main' })),
      'GET /api/operations/51': () =>
        json(200, deployHal({ id: '51', status: 'succeeded', git_ref: 'main' })),
      'GET /api/accounts/10/databases': () => json(200, collection('databases', [])),
      'POST /api/apps/1/operations': () => {
        redeployed = true;
        return json(201, deployHal({ id: '51', status: 'queued', git_ref: 'main' }));
      },
    }).calls;
    const { queryClient } = renderApp('/apps/1/deploy/status');
    // The Configure page's project deploy stopped before its deploy (a database failed to provision).
    await queryClient
      .getMutationCache()
      .build(queryClient, {
        mutationKey: guidedDeployKeys.deploy('1'),
        mutationFn: () => Promise.reject(new Error('Provisioning failed for shop-postgresql')),
      })
      .execute(undefined)
      .catch(() => undefined);
    expect(await screen.findByRole('heading', { level: 1, name: 'Deployment Failed' })).toBeInTheDocument();
    expect(screen.getByText('Error: Provisioning failed for shop-postgresql')).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Redeploy' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Deployed your Code' }, { timeout: 8_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Error: Provisioning failed for shop-postgresql')).toBeNull();
  }, 15_000);
});
