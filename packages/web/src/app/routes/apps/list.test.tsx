import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { appResourceFixture } from '../../../../test/app-fixtures.ts';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, environmentHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

const LIST = 'GET /api/apps?per_page=5000&no_embed=true';

/** An app as the bare list (`no_embed=true`) carries it: no services, image or operations. */
function bareAppHal(id: string, handle: string, createdAt: string) {
  return appResourceFixture({ id, handle, created_at: createdAt });
}

function appsConsole(searches: Record<string, string[]> = {}) {
  signIn();
  return mockServer({
    ...consoleRoutes({ environments: [environmentHal({ id: '10', handle: 'production' })] }),
    [LIST]: () =>
      json(
        200,
        collection('apps', [
          bareAppHal('1', 'shop', '2026-01-01T00:00:00.000Z'),
          bareAppHal('2', 'blog', '2026-02-01T00:00:00.000Z'),
        ]),
      ),
    ...Object.fromEntries(
      Object.entries(searches).map(([text, ids]) => [
        `${LIST}&search=${encodeURIComponent(text)}`,
        () =>
          json(
            200,
            collection(
              'apps',
              ids.map((id) => bareAppHal(id, `app-${id}`, '2026-01-01T00:00:00Z')),
            ),
          ),
      ]),
    ),
  });
}

const handles = () =>
  within(screen.getByRole('table', { name: 'Apps' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('the Apps list (spec 3 §2)', () => {
  it('lists the organization’s apps from the bare list, newest first, with their environment', async () => {
    appsConsole();
    renderApp('/apps');
    await screen.findByRole('link', { name: 'blog' });
    expect(handles()).toEqual(['blog', 'shop']);
    expect(within(screen.getByRole('table', { name: 'Apps' })).getAllByText('production')).toHaveLength(2);
  });

  it('finds an app by its git ref, which only the server can match without embeds', async () => {
    const server = appsConsole({ 'release-7': ['1'] });
    renderApp('/apps?search=release-7');
    await screen.findByRole('link', { name: 'shop' });
    expect(handles()).toEqual(['shop']);
    expect(server.calls.map((call) => call.path)).toContain(
      '/api/apps?per_page=5000&no_embed=true&search=release-7',
    );
  });

  it('asks the server again as the user types a last operation’s user', async () => {
    appsConsole({ grace: ['2'] });
    renderApp('/apps');
    await screen.findByRole('link', { name: 'blog' });
    await userEvent.type(screen.getByRole('searchbox'), 'grace');
    // Until the server answers, no row's own fields hold "grace"; then its match is shown.
    await waitFor(() => expect(screen.queryByRole('link', { name: 'shop' })).not.toBeInTheDocument());
    await screen.findByRole('link', { name: 'blog' });
    expect(handles()).toEqual(['blog']);
  });
});
