import { act, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../test/console-routes.ts';
import { json, mockServer } from '../../../test/fetch-mock.ts';
import { collection, environmentHal, stackHal, TEST_CONFIG } from '../../../test/fixtures.ts';
import { operationResourceFixture } from '../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../test/render.tsx';
import { SIMULATED_SENTENCES } from '../../resources/stacks/simulated-notice.tsx';

// Issue 35: a simulated stack, its apps and its operations say so (a badge and one sentence), and an app
// there shows no git remote, since none exists.

const simulated = { ...stackHal({ id: '1', name: 'shared-us-west-1', isDefault: true }), runtime: 'sim' };
const real = { ...stackHal({ id: '2', name: 'machines' }), runtime: 'docker' };

function console(runtimeOfStack1: 'sim' | 'docker', app = appResourceFixture({ id: '1', git_repo: '' })) {
  signIn();
  const stack1 = runtimeOfStack1 === 'sim' ? simulated : { ...simulated, runtime: 'docker' };
  mockServer({
    ...consoleRoutes({ stacks: [stack1, real], environments: [environmentHal({ id: '10', stackId: '1' })] }),
    'GET /api/stacks/1': () => json(200, stack1),
    'GET /api/stacks/2': () => json(200, real),
    'GET /api/apps/1': () => json(200, { ...app, deployment_method: 'git' }),
    'GET /api/apps/1/deployments': () => json(200, collection('deployments', [])),
    'GET /api/apps/1/services': () => json(200, collection('services', [])),
    'GET /api/apps/1/operations?with_services=true&page=1&per_page=1': () =>
      json(200, collection('operations', [])),
    'GET /api/operations/9': () =>
      json(
        200,
        operationResourceFixture({
          id: '9',
          status: 'queued',
          resource_id: '1',
          resource_handle: 'shop',
          _links: { account: { href: `${TEST_CONFIG.apiUrl}/accounts/10` } },
        }),
      ),
    'GET /api/costs/org-1/apps': () => json(200, collection('costs', [])),
    'GET /api/costs/org-1/services': () => json(200, collection('costs', [])),
    'GET /api/costs/org-1/stacks': () => json(200, collection('costs', [])),
    'GET /api/costs/org-1/accounts': () => json(200, collection('costs', [])),
  });
}

const notice = () => screen.findByRole('note', { name: 'Simulated' });

describe('a simulated stack says so (issue 35)', () => {
  it("on an app's page: the badge, its sentence, and no git remote", async () => {
    console('sim');
    renderApp('/apps/1');
    const shown = await notice();
    expect(within(shown).getByText('Simulated')).toHaveClass('badge');
    expect(shown).toHaveTextContent(SIMULATED_SENTENCES.app);
    const details = await screen.findByRole('region', { name: 'App details' });
    expect(within(details).getByText('Git Remote').nextElementSibling?.textContent).toBe('—');
    expect(details).not.toHaveTextContent('git@');
  });

  it("on a stack's page and an operation's page", async () => {
    console('sim');
    const { router } = renderApp('/stacks/1/environments');
    expect(await notice()).toHaveTextContent(SIMULATED_SENTENCES.stack);
    await act(() => router.navigate('/operations/9'));
    await screen.findByRole('region', { name: 'Operation details' });
    expect(await notice()).toHaveTextContent(SIMULATED_SENTENCES.operation);
  });

  it('says nothing of the kind on a stack of real machines, whose app shows its remote', async () => {
    const remote = 'http://localhost:4000/git/production/shop.git';
    console('docker', appResourceFixture({ id: '1', git_repo: remote }));
    const { router } = renderApp('/apps/1');
    const details = await screen.findByRole('region', { name: 'App details' });
    expect(within(details).getByText('Git Remote').nextElementSibling?.textContent).toBe(remote);
    // Once the page names the app's environment, the console knows its stack.
    expect(await screen.findByText(/^App in/)).toHaveTextContent('App in production');
    expect(screen.queryByRole('note', { name: 'Simulated' })).not.toBeInTheDocument();
    await act(() => router.navigate('/stacks/2/environments'));
    await screen.findByRole('region', { name: 'Stack details' });
    expect(screen.queryByRole('note', { name: 'Simulated' })).not.toBeInTheDocument();
    await act(() => router.navigate('/operations/9'));
    await screen.findByRole('region', { name: 'Operation details' });
    expect(screen.queryByRole('note', { name: 'Simulated' })).not.toBeInTheDocument();
  });
});
