import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockServer } from '../../../../test/fetch-mock.ts';
import { TEST_CONFIG } from '../../../../test/fixtures.ts';
import { renderApp } from '../../../../test/render.tsx';
import { setRuntimeConfig } from '../../../lib/config.ts';

describe('error pages', () => {
  it('shows Page Not Found for unknown routes, with a login link', async () => {
    mockServer({});
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(
      screen.getByText(
        "We can't find the page you're looking for. Maybe you mistyped the address? If not, the page may have moved.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('link', { name: 'Read the docs' })).not.toBeInTheDocument();
  });

  it('links the docs and status page when the installation has them', async () => {
    setRuntimeConfig({
      ...TEST_CONFIG,
      docsUrl: 'https://docs.example',
      statusPageUrl: 'https://status.example',
    });
    mockServer({});
    renderApp('/404');
    expect(await screen.findByRole('link', { name: 'Read the docs' })).toHaveAttribute(
      'href',
      'https://docs.example',
    );
    expect(screen.getByRole('link', { name: 'Check the status page' })).toHaveAttribute(
      'href',
      'https://status.example',
    );
  });

  it("shows Something's gone wrong with the message, Back and Login", async () => {
    mockServer({});
    const { router } = renderApp('/error?message=The%20database%20is%20down');
    expect(await screen.findByRole('heading', { name: "Something's gone wrong" })).toBeInTheDocument();
    expect(screen.getByText('The database is down')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Back' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });
});
