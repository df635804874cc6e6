import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer, noContent } from '../../../../test/fetch-mock.ts';
import { errorBody, TEST_CONFIG } from '../../../../test/fixtures.ts';
import { homeHal } from '../../../../test/home-fixtures.ts';
import { operationResourceFixture } from '../../../../test/operation-fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';
import { setRuntimeConfig } from '../../../lib/config.ts';

const HOME = 'GET /api/organizations/org-1/home';
const DISMISS = 'DELETE /api/organizations/org-1/home/feedback_banner';

/** An organization with something in every card, seen by a caller with Full Visibility. */
const busyHome = () =>
  homeHal('org-1', {
    counts: { dedicated_stacks: 1, environments: 2, apps: 1234, databases: 3 },
    estimated_monthly_cost: 1234.5,
    scaling: {
      services: 8,
      containers: 9,
      container_memory_mb: 12800,
      autoscaling_services: 2,
      horizontal_autoscaling_services: 1,
      vertical_autoscaling_services: 1,
      scale_down_services: 1,
      scale_up_services: 1,
      potential_savings: 200,
    },
    top_source: {
      id: '7',
      display_name: 'acme/shop',
      url: 'https://github.com/acme/shop',
      app_count: 9,
      live_commit_count: 9,
      live_commits: Array.from({ length: 7 }, (_, i) => ({
        sha: `sha${7 - i}aaaaaaaa`,
        ref: 'main',
        message: `commit ${7 - i}`,
        date: new Date(Date.UTC(2025, 0, 10 - i)).toISOString(),
        url: '',
      })),
    },
    security: {
      members: 5,
      members_with_two_factor: 2,
      sso_configured: true,
      sso_enforced: false,
      databases: 3,
      databases_with_backups: 2,
      endpoints: 3,
      endpoints_with_ip_allowlist: 1,
    },
    activities: [
      operationResourceFixture({ id: '41', type: 'deploy', status: 'succeeded', resource_handle: 'shop' }),
      operationResourceFixture({ id: '40', type: 'restart', status: 'failed', resource_handle: 'blog' }),
    ],
  });

describe('home (spec 3 §2)', () => {
  it('lands on Home at / with the counts, cost, scaling, top source, activity and security', async () => {
    signIn();
    mockServer({ ...consoleRoutes(), [HOME]: () => json(200, busyHome()) });
    const { router } = renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('link', { name: '1,234 Apps' })).toHaveAttribute('href', '/apps');
    expect(screen.getByRole('link', { name: '1 Dedicated Stacks' })).toHaveAttribute('href', '/stacks');
    expect(screen.getByRole('link', { name: '2 Environments' })).toHaveAttribute('href', '/environments');
    expect(screen.getByRole('link', { name: '3 Databases' })).toHaveAttribute('href', '/databases');
    const counts = screen.getByRole('list', { name: 'Resources at a glance' });
    expect(within(counts).getAllByRole('listitem')[4]).toHaveTextContent('$1,234.50Estimated Monthly Cost');

    const scaling = screen.getByRole('region', { name: 'Scaling' });
    expect(scaling).toHaveTextContent('8 services, 9 containers, 12.5 GB');
    expect(scaling).toHaveTextContent('2 services (1 horizontal, 1 vertical)');
    expect(scaling).toHaveTextContent('1 service: save up to $200.00 a month');

    const source = screen.getByRole('region', { name: 'Top Source' });
    expect(within(source).getByRole('link', { name: 'acme/shop' })).toHaveAttribute('href', '/sources/7');
    // spec 3 §2: at most 7 commit dots, then '+N' for the rest.
    expect(within(source).getAllByText(/^Commit sha\d/)).toHaveLength(7);
    expect(source).toHaveTextContent('+2');

    const activity = screen.getByRole('region', { name: 'Latest Activity' });
    const rows = within(activity).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('deploy');
    expect(rows[0]).toHaveTextContent('DONE');
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'deploy' })).toHaveAttribute(
      'href',
      '/operations/41',
    );
    expect(rows[1]).toHaveTextContent('FAILED');

    const security = screen.getByRole('region', { name: 'Security & Compliance' });
    expect(security).toHaveTextContent('2 of 5 members');
    expect(security).toHaveTextContent('Configured, not enforced');
    expect(security).toHaveTextContent('2 of 3 databases');
    expect(security).toHaveTextContent('1 of 3 endpoints');
  });

  it('counts one service and one container in the singular', async () => {
    signIn();
    const home = busyHome();
    home.scaling = { ...home.scaling, services: 1, containers: 1, container_memory_mb: 1024 };
    mockServer({ ...consoleRoutes(), [HOME]: () => json(200, home) });
    renderApp('/');
    expect(await screen.findByRole('region', { name: 'Scaling' })).toHaveTextContent(
      '1 service, 1 container, 1 GB',
    );
  });

  it("says the spec's texts where a card has nothing or the caller lacks Full Visibility", async () => {
    signIn();
    mockServer({ ...consoleRoutes() });
    renderApp('/');
    const activity = await screen.findByRole('region', { name: 'Latest Activity' });
    expect(activity).toHaveTextContent('No data found');
    expect(screen.getByRole('region', { name: 'Top Source' })).toHaveTextContent('No data found');
    expect(screen.getByRole('region', { name: 'Security & Compliance' })).toHaveTextContent(
      'Requires Full Visibility on any Environment',
    );
  });

  it("shows the server's message when the home cannot be read", async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      [HOME]: () => json(500, errorBody(500, 'internal_server_error', 'Database is away')),
    });
    renderApp('/');
    expect(await screen.findByText('Error: Database is away')).toBeInTheDocument();
  });

  it('dismisses the feedback banner through the server, and it stays dismissed', async () => {
    signIn();
    let dismissed = false;
    const server = mockServer({
      ...consoleRoutes(),
      [HOME]: () => json(200, homeHal('org-1', { feedback_banner_dismissed: dismissed })),
      [DISMISS]: () => {
        dismissed = true;
        return noContent();
      },
    });
    const first = renderApp('/');
    expect(await screen.findByText('Home is in beta')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Home is in beta')).not.toBeInTheDocument();
    // Dismiss went with the banner: focus goes to the page's heading, not back to the top of the page.
    await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'Home' })).toHaveFocus());
    expect(screen.getByRole('heading', { level: 1, name: 'Home' })).toHaveAttribute('tabindex', '-1');
    expect(server.callsTo('DELETE', '/api/organizations/org-1/home/feedback_banner')).toHaveLength(1);

    first.unmount();
    renderApp('/');
    expect(await screen.findByRole('region', { name: 'Scaling' })).toBeInTheDocument();
    expect(screen.queryByText('Home is in beta')).not.toBeInTheDocument();
  });

  it('keeps the banner, with the reason, when the server refuses the dismissal', async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      [DISMISS]: () => json(404, errorBody(404, 'not_found', 'Organization not found')),
    });
    renderApp('/');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(await screen.findByText('Error: Organization not found')).toBeInTheDocument();
    expect(screen.getByText('Home is in beta')).toBeInTheDocument();
  });

  it('sends /home-beta to Home at /', async () => {
    signIn();
    mockServer({ ...consoleRoutes() });
    const { router } = renderApp('/home-beta');
    expect(await screen.findByRole('heading', { name: 'Home', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('goes from / and /home-beta to the environments with the home flag off (BERTH_HOME=off)', async () => {
    setRuntimeConfig({ ...TEST_CONFIG, home: false });
    signIn();
    const server = mockServer({ ...consoleRoutes() });
    const { router, unmount } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'No environments exist' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/environments');
    expect(screen.queryByRole('link', { name: 'Home' })).not.toBeInTheDocument();
    unmount();
    const again = renderApp('/home-beta');
    expect(await screen.findByRole('heading', { name: 'No environments exist' })).toBeInTheDocument();
    expect(again.router.state.location.pathname).toBe('/environments');
    expect(server.callsTo('GET', '/api/organizations/org-1/home')).toHaveLength(0);
  });
});
