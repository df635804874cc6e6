import { permissionMessages, SEARCH_DEBOUNCE_MS, type SearchResultResource } from '@berth/core';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleRoutes } from '../../../test/console-routes.ts';
import { json, mockServer, type RecordedCall } from '../../../test/fetch-mock.ts';
import { environmentHal, HOST, roleHal } from '../../../test/fixtures.ts';
import { renderApp, renderWithProviders, signIn } from '../../../test/render.tsx';
import { searchKeys } from '../../features/search/api/search-keys.ts';
import { useCommandPalette } from './command-palette-host.tsx';

function result(
  type: SearchResultResource['resource_type'],
  id: string,
  title: string,
): SearchResultResource {
  const collection = { app: 'apps', database: 'databases', deployment: 'deployments' }[type as string];
  return {
    id,
    _type: 'search_result',
    resource_type: type,
    title,
    description: 'production',
    _links: {
      self: { href: `${HOST}/api/${collection ?? type}/${id}` },
      account: { href: `${HOST}/api/accounts/1` },
    },
  };
}

function answer(results: SearchResultResource[]) {
  return json(200, {
    _embedded: { search_results: results },
    _links: { self: { href: `${HOST}/api/search` } },
    current_page: 1,
    per_page: Math.max(results.length, 1),
    total_count: results.length,
  });
}

const textOf = (call: RecordedCall) => new URL(call.path, HOST).searchParams.get('q');

const ACTIONS = [
  { label: 'Create environment', to: '/create/environment' },
  { label: 'Go to Apps', to: '/apps' },
];

/** The shell's use of the palette, on a page with something focused and a main region. */
function Harness() {
  const palette = useCommandPalette(ACTIONS);
  const { pathname } = useLocation();
  return (
    <>
      <button type="button" onClick={palette.open}>
        Open search
      </button>
      <main id="main" tabIndex={-1}>
        Page {pathname}
      </main>
      {palette.element}
    </>
  );
}

function renderPalette() {
  signIn();
  const server = mockServer({
    'GET /api/search': (call) =>
      answer(
        textOf(call) === 'store'
          ? [result('app', '12', 'storefront'), result('database', '7', 'store-db')]
          : [],
      ),
  });
  const view = renderWithProviders(<Harness />, '/environments');
  return { ...view, server };
}

describe('the ⌘K palette (issue 38)', () => {
  // A test that moves the clock itself gives it back even when it fails midway.
  afterEach(() => vi.useRealTimers());

  it('opens with Ctrl-K as a labelled modal dialog, and Escape puts focus back where it was', async () => {
    const user = userEvent.setup();
    renderPalette();
    const opener = screen.getByRole('button', { name: 'Open search' });
    opener.focus();
    await user.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Search and commands' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    const input = within(dialog).getByRole('combobox', { name: 'Search resources or type a command' });
    expect(input).toHaveFocus();
    // The page behind can be neither focused nor read meanwhile.
    expect(opener.closest('[inert]')).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
    expect(opener.closest('[inert]')).toBeNull();
  });

  it('keeps Tab inside the dialog', async () => {
    const user = userEvent.setup();
    renderPalette();
    await user.click(screen.getByRole('button', { name: 'Open search' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByRole('combobox');
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.tab();
    expect(input).toHaveFocus();
    await user.tab({ shift: true });
    expect(within(dialog).getByRole('button', { name: 'Close' })).toHaveFocus();
  });

  it('searches as one types and opens a found app with the arrows and Enter', async () => {
    const user = userEvent.setup();
    const { router, server } = renderPalette();
    await user.click(screen.getByRole('button', { name: 'Open search' }));
    await user.keyboard('store');
    const app = await screen.findByRole('option', { name: 'storefront, App, production' });
    expect(screen.getByRole('option', { name: 'store-db, Database, production' })).toBeInTheDocument();
    // The typing was asked once, after it paused.
    expect(server.callsTo('GET', '/api/search').map(textOf)).toEqual(['store']);
    expect(screen.getByRole('status')).toHaveTextContent('2 results');
    const input = screen.getByRole('combobox');
    // No action is called "store": the first option is the app.
    expect(input).toHaveAttribute('aria-activedescendant', app.id);
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/apps/12');
    await waitFor(() => expect(screen.getByRole('main')).toHaveFocus());
  });

  it('runs an action by keyboard, and offers every result on the search page', async () => {
    const user = userEvent.setup();
    const { router } = renderPalette();
    await user.click(screen.getByRole('button', { name: 'Open search' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Create environment',
      'Go to Apps',
    ]);
    await user.keyboard('create env{Enter}');
    expect(router.state.location.pathname).toBe('/create/environment');

    await user.click(screen.getByRole('button', { name: 'Open search' }));
    await user.keyboard('nothing here');
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('No results found for this search query.'),
    );
    await user.keyboard('{ArrowDown}{Enter}');
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/search?search=nothing+here',
    );
  });

  it('shows no result of an older text while a newer one settles or its answer is on its way', async () => {
    const user = userEvent.setup();
    signIn();
    let releaseNewer: () => void = () => {};
    const server = mockServer({
      'GET /api/search': (call) =>
        textOf(call) === 'store'
          ? new Promise((resolve) => {
              releaseNewer = () => resolve(answer([result('app', '12', 'storefront')]));
            })
          : answer([result('app', '99', 'older-answer')]),
    });
    renderWithProviders(<Harness />, '/environments');
    await user.click(screen.getByRole('button', { name: 'Open search' }));
    await user.keyboard('sto');
    // The older text's own answer, shown for it.
    await screen.findByRole('option', { name: /older-answer/ });
    await user.keyboard('re');
    // While the typing settles, nothing of "sto" stands for "store"…
    expect(screen.queryByRole('option', { name: /older-answer/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Searching…');
    // …nor once "store" is asked and its answer is on its way.
    await waitFor(() => expect(server.callsTo('GET', '/api/search').map(textOf)).toContain('store'));
    expect(screen.queryByRole('option', { name: /older-answer/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Searching…');
    await act(async () => releaseNewer());
    expect(await screen.findByRole('option', { name: /storefront/ })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /older-answer/ })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('1 result');
  });

  it('never shows, nor opens on Enter, an older text’s answer that comes after more was typed', async () => {
    signIn();
    let releaseOlder: () => void = () => {};
    const server = mockServer({
      'GET /api/search': (call) =>
        textOf(call) === 'api'
          ? new Promise((resolve) => {
              releaseOlder = () => resolve(answer([result('app', '99', 'api')]));
            })
          : // The newer text's answer has not come by the end of the test.
            new Promise(() => {}),
    });
    const { router, queryClient } = renderWithProviders(<Harness />, '/environments');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Open search' }));
    const input = within(await screen.findByRole('dialog')).getByRole('combobox');
    // From here the test moves the clock: the older answer comes within the 300 ms pause of the newer
    // typing, however slow the machine. Only timeouts are faked (the answers' bodies are read for real);
    // the typing is fired directly, as user-event waits on a real timeout between steps.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const type = (value: string) => fireEvent.change(input, { target: { value } });
      const later = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
      const asked = () => server.callsTo('GET', '/api/search').map(textOf);
      const olderOption = () => screen.queryByRole('option', { name: /^api, App/ });

      type('api');
      await later(SEARCH_DEBOUNCE_MS);
      expect(asked()).toEqual(['api']);
      type('api-prod');
      await act(async () => releaseOlder());
      // Time moves a millisecond at a time until the answer is in, well within the pause.
      for (let ms = 0; ms < 50 && !queryClient.getQueryData(searchKeys.text('api')); ms += 1) await later(1);
      expect(queryClient.getQueryData(searchKeys.text('api'))).toHaveLength(1);
      // The query tells the palette on the next tick; the palette has rendered with the answer since.
      await later(5);
      expect(asked()).toEqual(['api']);
      expect(olderOption()).not.toBeInTheDocument();
      expect(screen.getByRole('status')).toHaveTextContent('Searching…');

      // "api-prod" is asked; while its answer is on its way, "api"'s stays hidden.
      await later(SEARCH_DEBOUNCE_MS);
      expect(asked()).toEqual(['api', 'api-prod']);
      expect(olderOption()).not.toBeInTheDocument();
      // Enter runs what is shown for "api-prod": every result of it on the search page.
      fireEvent.keyDown(input, { key: 'Enter' });
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
        '/search?search=api-prod',
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the palette in the console (issue 38)', () => {
  it('opens from the side navigation’s search launcher and from the keyboard on any page', async () => {
    const user = userEvent.setup();
    signIn();
    mockServer({ ...consoleRoutes(), 'GET /api/search': () => answer([]) });
    renderApp('/environments');
    const launcher = await screen.findByRole('button', { name: 'Search' });
    await user.click(launcher);
    expect(await screen.findByRole('dialog', { name: 'Search and commands' })).toBeInTheDocument();
    // The console's own actions: the main flows and every area of the navigation.
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(expect.arrayContaining(['Create environment', 'Create database', 'Go to Apps']));
    await user.keyboard('{Escape}');
    expect(launcher).toHaveFocus();
    await user.keyboard('{Meta>}k{/Meta}');
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });

  it('offers a flow the caller may not start disabled, with core’s reason, and Enter does not start it', async () => {
    const user = userEvent.setup();
    signIn();
    // A deployer of one environment: no owner, so no new environment; apps and databases there.
    mockServer({
      ...consoleRoutes({
        roles: [roleHal({ id: 'role-2', name: 'Deployers', type: 'platform_user' })],
        environments: [
          environmentHal({ id: '10', permissions: [{ id: 'p1', scope: 'deploy', roleId: 'role-2' }] }),
        ],
      }),
      'GET /api/search': () => answer([]),
    });
    const { router } = renderApp('/environments');
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    const createEnvironment = await screen.findByRole('option', { name: 'Create environment' });
    expect(createEnvironment).toHaveAttribute('aria-disabled', 'true');
    expect(createEnvironment).toHaveAccessibleDescription(permissionMessages.ownerOnly);
    for (const allowed of ['Deploy an app', 'Create database', 'Go to Apps']) {
      expect(screen.getByRole('option', { name: allowed })).not.toHaveAttribute('aria-disabled');
    }
    await user.keyboard('create env{Enter}');
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/environments');
    await user.click(screen.getByRole('option', { name: 'Create environment' }));
    expect(router.state.location.pathname).toBe('/environments');
  });
});
