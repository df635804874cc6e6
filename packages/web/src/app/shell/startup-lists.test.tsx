import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../test/console-routes.ts';
import { mockServer } from '../../../test/fetch-mock.ts';
import { renderApp, signIn } from '../../../test/render.tsx';

describe('start-up sequence (contract §7, spec 3 §4)', () => {
  it('loads the required data first, then the lists in parallel, then the costs', async () => {
    signIn();
    const { calls } = mockServer(consoleRoutes());
    renderApp('/environments');
    expect(await screen.findByRole('heading', { name: 'No environments exist' })).toBeInTheDocument();
    await screen.findByRole('navigation', { name: 'Main' });
    const paths = () => calls.map((call) => call.path.split('?')[0]);
    await expect.poll(() => paths()).toContain('/api/costs/org-1/services');
    const order = paths();
    const after = (path: string) => order.indexOf(path);
    const required = after('/auth/users/user-1/roles');
    expect(required).toBeGreaterThan(-1);
    for (const path of [
      '/api/apps',
      '/api/services',
      '/api/organizations/org-1/operations',
      '/api/deployments',
      '/api/sources',
    ]) {
      expect(after(path)).toBeGreaterThan(required);
    }
    expect(after('/api/costs/org-1/apps')).toBeGreaterThan(after('/api/apps'));
  });

  it("lets the page's own requests go first, then asks the lists no page asked for", async () => {
    signIn();
    const { calls } = mockServer(consoleRoutes());
    renderApp('/apps');
    const paths = () => calls.map((call) => call.path.split('?')[0]);
    await expect.poll(() => paths()).toContain('/api/databases');
    const order = paths();
    // The apps page asks for its apps, services, costs and deployments; the databases list is not its.
    expect(order.indexOf('/api/databases')).toBeGreaterThan(order.indexOf('/api/apps'));
    expect(order.indexOf('/api/databases')).toBeGreaterThan(order.indexOf('/api/costs/org-1/apps'));
    expect(order.indexOf('/api/organizations/org-1/operations')).toBeGreaterThan(order.indexOf('/api/apps'));
  });
});
