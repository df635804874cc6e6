import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deniedDescription } from '../../../test/denials.ts';
import { renderWithProviders } from '../../../test/render.tsx';
import type { Organization } from '../../resources/organizations/organization.hal.ts';
import { Sidebar, type SidebarProps } from './sidebar.tsx';

const organization = (id: string, name: string): Organization => ({
  id,
  name,
  ssoEnforced: false,
  billingDetailId: null,
  reauthRequired: false,
  contacts: {
    address: '',
    city: '',
    state: '',
    zip: '',
    primaryPhone: '',
    emergencyPhone: '',
    securityAlertEmail: '',
    opsAlertEmail: '',
  },
  createdAt: '',
  updatedAt: '',
});

function renderSidebar(props: Partial<SidebarProps> = {}) {
  const engines = organization('org-1', 'Analytical Engines of Greater London');
  const onSelectOrganization = vi.fn();
  const view = renderWithProviders(
    <Sidebar
      organizations={[engines, organization('org-2', 'Jacquard')]}
      organization={engines}
      stackName="shared-us-west-1-with-a-long-name"
      switchingTo={null}
      onSelectOrganization={onSelectOrganization}
      homeEnabled={false}
      fullVisibility={false}
      canImpersonate={false}
      docsUrl={null}
      theme="light"
      onToggleTheme={() => {}}
      {...props}
    />,
    '/environments',
  );
  return { ...view, onSelectOrganization };
}

const mainLinks = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((link) => link.textContent);

describe('side navigation (spec 3 §2)', () => {
  it('lists the entries in order, Home only with the home flag', async () => {
    renderSidebar();
    await screen.findByRole('navigation', { name: 'Main' });
    expect(mainLinks()).toEqual([
      'Stacks',
      'Environments',
      'Apps',
      'Databases',
      'Endpoints',
      'Services',
      'Sources',
      'Deployments',
      'Activity',
      'Costs',
      'Security & Compliance',
    ]);
  });

  it('puts Home first when the flag is on, at /, not current on the other pages', async () => {
    renderSidebar({ homeEnabled: true });
    await screen.findByRole('navigation', { name: 'Main' });
    expect(mainLinks()[0]).toBe('Home');
    const home = screen.getByRole('link', { name: 'Home' });
    expect(home).toHaveAttribute('href', '/');
    // The sidebar sits on /environments: that entry is the current one, Home is not.
    expect(home).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('link', { name: 'Environments' })).toHaveAttribute('aria-current', 'page');
  });

  it('disables Security & Compliance without Full Visibility, with the tooltip', async () => {
    renderSidebar();
    const entry = await screen.findByRole('link', { name: 'Security & Compliance' });
    expect(entry).toHaveAttribute('aria-disabled', 'true');
    expect(entry).not.toHaveAttribute('href');
    expect(entry).toHaveAccessibleDescription(
      deniedDescription('Requires Full Visibility on any Environment'),
    );
    expect(screen.getAllByRole('tooltip').map((tip) => tip.textContent)).toContain(
      deniedDescription('Requires Full Visibility on any Environment'),
    );
  });

  it('with Full Visibility, links Security & Compliance to its page', async () => {
    renderSidebar({ fullVisibility: true });
    const entry = await screen.findByRole('link', { name: 'Security & Compliance' });
    expect(entry).not.toHaveAttribute('aria-disabled');
    expect(entry).toHaveAttribute('href', '/security-compliance');
  });

  it('links Deploy to the guided deploy and SUPPORT to the support form: no entry is disabled as not built', async () => {
    renderSidebar();
    // Issue 38: every destination the spec names is built.
    expect(await screen.findByRole('link', { name: 'Deploy' })).toHaveAttribute('href', '/deploy');
    expect(screen.getByRole('link', { name: 'SUPPORT' })).toHaveAttribute('href', '/support');
    expect(screen.queryByText('Not available in this installation yet')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Apps' })).toHaveAttribute('href', '/apps');
    // Databases is live: a link to the list.
    expect(screen.getByRole('link', { name: 'Databases' })).toHaveAttribute('href', '/databases');
  });

  it('offers Deploy, Settings, Logout and the help links; Impersonate only to impersonators', async () => {
    const { unmount } = renderSidebar({ docsUrl: 'https://docs.berth.example' });
    const account = await screen.findByRole('navigation', { name: 'Account' });
    expect(
      within(account)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Settings', 'Logout']);
    expect(screen.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/logout');
    expect(screen.getByRole('link', { name: 'Deploy' })).toHaveAttribute('href', '/deploy');
    expect(screen.getByRole('link', { name: 'DOCS' })).toHaveAttribute('href', 'https://docs.berth.example');
    expect(screen.getByRole('link', { name: 'SUPPORT' })).toHaveAttribute('href', '/support');
    expect(screen.getByRole('link', { name: 'INSTALL CLI' })).toBeInTheDocument();
    // Issue 8: the API reference sits with the help links, whether or not docs are configured.
    expect(screen.getByRole('link', { name: 'API REFERENCE' })).toHaveAttribute('href', '/api-reference');
    unmount();

    renderSidebar({ canImpersonate: true });
    const withImpersonate = await screen.findByRole('navigation', { name: 'Account' });
    expect(
      within(withImpersonate)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Settings', 'Impersonate', 'Logout']);
  });

  it('offers the CLI SSO Token page where SSO is in use (spec 3 §2 "shown only to some users")', async () => {
    renderSidebar({ cliSsoToken: true });
    const account = await screen.findByRole('navigation', { name: 'Account' });
    expect(
      within(account)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Settings', 'CLI SSO Token', 'Logout']);
    expect(within(account).getByRole('link', { name: 'CLI SSO Token' })).toHaveAttribute('href', '/sso/cli');
  });

  it('is 256 px wide, collapses to 64 px when toggled and remembers it under "nav"', async () => {
    renderSidebar();
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(sidebar).toHaveStyle({ width: '256px' });

    await userEvent.setup().click(screen.getByRole('button', { name: 'Collapse sidebar' }));

    expect(sidebar).toHaveStyle({ width: '64px' });
    expect(JSON.parse(window.localStorage.getItem('nav') ?? '')).toEqual({ collapsed: true });
    // Collapsed to icons, every entry keeps its accessible name.
    expect(screen.getByRole('link', { name: 'Environments' })).toBeInTheDocument();
  });

  it('auto-collapses at 767 px and below', async () => {
    window.innerWidth = 1024;
    renderSidebar();
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(sidebar).toHaveStyle({ width: '256px' });

    act(() => {
      window.innerWidth = 767;
      window.dispatchEvent(new Event('resize'));
    });
    expect(sidebar).toHaveStyle({ width: '64px' });
    expect(sidebar).toHaveAttribute('data-collapsed', 'true');

    act(() => {
      window.innerWidth = 768;
      window.dispatchEvent(new Event('resize'));
    });
    expect(sidebar).toHaveStyle({ width: '256px' });
  });

  it('opens as a drawer over the page on a narrow window, closed by Escape or a tap beside it (issue 20)', async () => {
    window.innerWidth = 700;
    renderSidebar();
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    expect(sidebar).not.toHaveAttribute('data-overlay');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    expect(sidebar).toHaveAttribute('data-overlay', 'true');
    expect(sidebar).toHaveStyle({ width: '256px' });
    await user.keyboard('{Escape}');
    expect(sidebar).not.toHaveAttribute('data-overlay');
    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    await user.click(screen.getByRole('button', { name: 'Close menu' }));
    expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    window.innerWidth = 1024;
  });

  it('closes the drawer when focus leaves it for the page under it, not while it moves inside', async () => {
    window.innerWidth = 700;
    renderSidebar();
    const outside = document.createElement('button');
    outside.textContent = 'On the page';
    document.body.append(outside);
    const sidebar = await screen.findByRole('complementary', { name: 'Sidebar' });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Expand sidebar' }));
    await user.tab();
    expect(sidebar).toContainElement(document.activeElement as HTMLElement);
    expect(sidebar).toHaveAttribute('data-overlay', 'true');
    // Shift+Tab from the drawer's first control reaches the backdrop's Close menu: still the drawer.
    act(() => screen.getByRole('button', { name: 'Close menu' }).focus());
    expect(sidebar).toHaveAttribute('data-overlay', 'true');
    act(() => outside.focus());
    expect(sidebar).not.toHaveAttribute('data-overlay');
    outside.remove();
    window.innerWidth = 1024;
  });

  it('on a phone leaves no rail: the Menu button opens the drawer, which holds the focus (issue 41)', async () => {
    window.innerWidth = 390;
    renderSidebar();
    const menu = await screen.findByRole('button', { name: 'Menu' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(menu);
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(sidebar).toHaveAttribute('data-overlay', 'true');
    expect(sidebar).toHaveStyle({ width: '256px' });
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    // Focus moves into the drawer, to its Close menu button, and Tab cycles inside it both ways.
    const close = within(sidebar).getByRole('button', { name: 'Close menu' });
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(sidebar).toContainElement(document.activeElement as HTMLElement);
    expect(close).not.toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    for (let step = 0; step < 30; step += 1) {
      await user.tab();
      expect(sidebar).toContainElement(document.activeElement as HTMLElement);
    }
    // Escape closes it and gives the focus back to the Menu button.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).not.toBeInTheDocument();
    expect(menu).toHaveFocus();
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    // Its own Close menu button does the same.
    await user.click(menu);
    await user.click(
      within(screen.getByRole('complementary', { name: 'Sidebar' })).getByRole('button', {
        name: 'Close menu',
      }),
    );
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).not.toBeInTheDocument();
    expect(menu).toHaveFocus();
    window.innerWidth = 1024;
  });

  it('on a phone closes the drawer before the search palette opens over the page', async () => {
    window.innerWidth = 390;
    const onOpenSearch = vi.fn();
    renderSidebar({ onOpenSearch });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Menu' }));
    const sidebar = screen.getByRole('complementary', { name: 'Sidebar' });
    await user.click(within(sidebar).getByRole('button', { name: 'Search' }));
    expect(onOpenSearch).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('complementary', { name: 'Sidebar' })).not.toBeInTheDocument();
    // The bar's own launcher opens it too.
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(onOpenSearch).toHaveBeenCalledTimes(2);
    window.innerWidth = 1024;
  });

  it('names the organization and stack cut to 20 characters and switches organization', async () => {
    const { onSelectOrganization } = renderSidebar();
    const switcher = await screen.findByRole('button', {
      name: 'Organization: Analytical Engines of Greater London',
    });
    expect(switcher).toHaveTextContent('Analytical Engines o...');
    expect(switcher).toHaveTextContent('shared-us-west-1-wit...');

    const user = userEvent.setup();
    await user.click(switcher);
    const menu = screen.getByRole('menu', { name: 'Organizations' });
    expect(within(menu).getByRole('menuitemradio', { name: 'Analytical Engines o...' })).toBeChecked();
    await user.click(within(menu).getByRole('menuitemradio', { name: 'Jacquard' }));
    expect(onSelectOrganization).toHaveBeenCalledWith('org-2');
  });
});
