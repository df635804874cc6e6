import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

const ticket = {
  id: '42',
  _type: 'support_ticket',
  subject: 'Deploys are stuck',
  description: 'Queued for an hour.',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  priority: 'high',
  attachments: [
    {
      id: '5',
      file_name: 'screen.png',
      media_type: 'image/png',
      size: 2048,
      created_at: '2026-11-29T07:00:00.000Z',
      _links: { download: { href: 'http://berth.test/api/support/attachments/5' } },
    },
  ],
  created_at: '2026-11-29T07:00:00.000Z',
  updated_at: '2026-11-29T07:00:00.000Z',
  _links: {
    self: { href: 'http://berth.test/api/support/tickets/42' },
    user: { href: 'http://berth.test/auth/users/user-1' },
  },
};

describe('/support (spec 3 §2)', () => {
  it("prefills the form from the request that opened it and lists the requester's tickets", async () => {
    signIn();
    const server = mockServer({
      ...consoleRoutes(),
      'GET /api/support/tickets?per_page=5000': () => json(200, collection('support_tickets', [ticket])),
      'POST /api/support/create': () => json(201, {}),
    });
    renderApp('/support?subject=Dedicated%20stack%20request&description=Please%20make%20one&priority=urgent');
    expect(await screen.findByRole('textbox', { name: 'Subject' })).toHaveValue('Dedicated stack request');
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue('Please make one');
    expect(screen.getByRole('combobox', { name: 'Priority' })).toHaveValue('urgent');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace');
    const tickets = await screen.findByRole('table', { name: 'Your tickets' });
    expect(within(tickets).getAllByRole('row')[1]).toHaveTextContent('Deploys are stuck#42high');
    expect(within(tickets).getByRole('button', { name: 'screen.png' })).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByText('Your ticket was sent. A copy is on its way to your email address.'),
    ).toBeInTheDocument();
    expect(server.calls.find((call) => call.path === '/api/support/create')?.body).toEqual({
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      subject: 'Dedicated stack request',
      description: 'Please make one',
      priority: 'urgent',
      attachments: [],
    });
  });

  it('shows the ticket a support mail links to', async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      'GET /api/support/tickets?per_page=5000': () => json(200, collection('support_tickets', [])),
      'GET /api/support/tickets/42': () => json(200, ticket),
    });
    renderApp('/support?ticket=42');
    const shown = await screen.findByRole('region', { name: 'Ticket #42' });
    expect(within(shown).getByRole('heading', { name: 'Ticket #42: Deploys are stuck' })).toBeInTheDocument();
    expect(within(shown).getByText('Queued for an hour.')).toBeInTheDocument();
    const tickets = await screen.findByRole('table', { name: 'Your tickets' });
    expect(await within(tickets).findByText('No resources found')).toBeInTheDocument();
  });

  it('lists every ticket, following the next page link the server gives (contract §1.4)', async () => {
    signIn();
    const second = { ...ticket, id: '41', subject: 'Logs are late', attachments: [] };
    const next = 'http://berth.test/api/support/tickets?page=2&per_page=5000';
    const server = mockServer({
      ...consoleRoutes(),
      'GET /api/support/tickets?per_page=5000': () =>
        json(200, {
          ...collection('support_tickets', [ticket]),
          _links: { self: { href: 'http://berth.test/api/support/tickets' }, next: { href: next } },
          per_page: 5000,
          total_count: 5001,
        }),
      'GET /api/support/tickets?page=2&per_page=5000': () =>
        json(200, {
          ...collection('support_tickets', [second]),
          current_page: 2,
          per_page: 5000,
          total_count: 5001,
        }),
    });
    renderApp('/support');
    const tickets = await screen.findByRole('table', { name: 'Your tickets' });
    expect(await within(tickets).findByText('Logs are late')).toBeInTheDocument();
    expect(within(tickets).getByText('Deploys are stuck')).toBeInTheDocument();
    expect(server.callsTo('GET', '/api/support/tickets').map((call) => call.path)).toEqual([
      '/api/support/tickets?per_page=5000',
      '/api/support/tickets?page=2&per_page=5000',
    ]);
    // The list is the console's list table: searchable.
    expect(screen.getByRole('searchbox', { name: 'Search your tickets' })).toBeInTheDocument();
  });

  it('keeps what was typed when the query string changes, e.g. a ticket link opens a ticket', async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      'GET /api/support/tickets?per_page=5000': () => json(200, collection('support_tickets', [ticket])),
      'GET /api/support/tickets/42': () => json(200, ticket),
    });
    const { router } = renderApp(
      '/support?subject=Dedicated%20stack%20request&description=Please%20make%20one',
    );
    const description = await screen.findByRole('textbox', { name: 'Description' });
    const user = userEvent.setup();
    await user.type(description, ' with 4 GB of memory');

    await router.navigate(
      '/support?subject=Dedicated%20stack%20request&description=Please%20make%20one&ticket=42',
    );
    expect(await screen.findByRole('region', { name: 'Ticket #42' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue(
      'Please make one with 4 GB of memory',
    );

    // Another request sent here is a new form.
    await router.navigate('/support?subject=VPN%20tunnel%20request');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Subject' })).toHaveValue('VPN tunnel request'),
    );
    expect(screen.getByRole('textbox', { name: 'Description' })).toHaveValue('');
  });

  it('drops the prefill from the address once the ticket is sent, so a reload does not ask again', async () => {
    signIn();
    mockServer({
      ...consoleRoutes(),
      'GET /api/support/tickets?per_page=5000': () => json(200, collection('support_tickets', [])),
      'GET /api/support/tickets/42': () => json(200, ticket),
      'POST /api/support/create': () => json(201, {}),
    });
    const { router } = renderApp(
      '/support?ticket=42&subject=Dedicated%20stack%20request&description=Please%20make%20one&priority=high',
    );
    await screen.findByRole('textbox', { name: 'Subject' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Submit' }));

    expect(
      await screen.findByText('Your ticket was sent. A copy is on its way to your email address.'),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('?ticket=42');
    // Replaced, not pushed: Back does not return to the prefilled form either.
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByRole('textbox', { name: 'Subject' })).toHaveValue('');
  });
});
