import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { consoleRoutes } from '../../../../test/console-routes.ts';
import { deniedDescription } from '../../../../test/denials.ts';
import { json, mockServer } from '../../../../test/fetch-mock.ts';
import { collection, costHal, environmentHal, roleHal, stackHal } from '../../../../test/fixtures.ts';
import { renderApp, signIn } from '../../../../test/render.tsx';

const stacks = [
  { ...stackHal({ id: '1', name: 'shared-us-west-1', isDefault: true }), runtime: 'sim' },
  {
    ...stackHal({ id: '2', name: 'engines-prod', organizationId: 'org-1' }),
    region: 'eu-west-1',
    memory_limits: true,
    outbound_ip_addresses: ['203.0.113.7', '203.0.113.8'],
  },
];

function routes(options: { roleType?: string; environments?: unknown[] } = {}) {
  return {
    ...consoleRoutes({
      stacks,
      roles: [roleHal({ type: options.roleType ?? 'owner' })],
      environments: options.environments ?? [
        environmentHal({ id: '10', handle: 'production', stackId: '2' }),
        environmentHal({ id: '11', handle: 'staging', stackId: '1' }),
        environmentHal({ id: '12', handle: 'review', stackId: '1' }),
      ],
    }),
    'GET /api/costs/org-1/stacks': () =>
      json(200, collection('costs', [costHal('1', 'Stack', 0), costHal('2', 'Stack', 499)])),
    'GET /api/costs/org-1/accounts': () => json(200, collection('costs', [])),
    'GET /api/stacks/1': () => json(200, stacks[0]),
    'GET /api/stacks/2': () => json(200, stacks[1]),
  };
}

describe('stacks list (spec 2 §2)', () => {
  it('lists tenancy, region, environments and cost with a total, and a New Dedicated Stack link', async () => {
    signIn();
    mockServer(routes());
    renderApp('/stacks');
    const table = await screen.findByRole('table', { name: 'Stacks' });
    expect(await within(table).findByText('$499.00')).toBeInTheDocument();
    const [header, first, second] = within(table).getAllByRole('row');
    expect(
      within(header as HTMLElement)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Name', 'ID', 'Tenancy', 'Region', 'Environments', 'Est. Monthly Cost']);
    expect(first).toHaveTextContent('shared-us-west-11Shared (Simulated)us-west-12$0.00');
    expect(second).toHaveTextContent('engines-prod2Dedicatedeu-west-11$499.00');
    expect(screen.getByRole('status', { name: 'Total Est. Monthly Cost' })).toHaveTextContent('$499.00');
    expect(screen.getByRole('link', { name: 'New Dedicated Stack' })).toHaveAttribute(
      'href',
      '/create/stack',
    );
    expect(within(table).getByRole('link', { name: 'engines-prod' })).toHaveAttribute('href', '/stacks/2');
  });

  it('offers the request to the Account Owner alone: others see why, on the list and on the form', async () => {
    signIn();
    mockServer(routes({ roleType: 'platform_owner' }));
    const { router } = renderApp('/stacks');
    const button = await screen.findByRole('button', { name: 'New Dedicated Stack' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    const described = deniedDescription(
      'You do not have a valid role type (platform_owner, owner) to access this resource.',
    );
    expect(button).toHaveAccessibleDescription(described);
    await router.navigate('/create/stack');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Stack name' }), 'acme-production');
    await user.selectOptions(screen.getByRole('combobox', { name: 'AWS region' }), 'eu-west-1');
    await user.click(screen.getByRole('checkbox', { name: /I accept/ }));
    const submit = screen.getByRole('button', { name: 'Request Dedicated Stack' });
    expect(submit).toHaveAccessibleDescription(described);
    await user.click(submit);
    expect(screen.queryByText('Dedicated Stack request')).not.toBeInTheDocument();
  });

  it('lets the Account Owner send the same request', async () => {
    signIn();
    mockServer(routes());
    renderApp('/create/stack');
    const user = userEvent.setup();
    await user.type(await screen.findByRole('textbox', { name: 'Stack name' }), 'acme-production');
    await user.selectOptions(screen.getByRole('combobox', { name: 'AWS region' }), 'eu-west-1');
    await user.click(screen.getByRole('checkbox', { name: /I accept/ }));
    await user.click(screen.getByRole('button', { name: 'Request Dedicated Stack' }));
    expect(await screen.findByText('Dedicated Stack request')).toBeInTheDocument();
  });
});

describe('stack detail (spec 2 §2)', () => {
  it('shows the fields and opens on the environments tab', async () => {
    signIn();
    mockServer(routes());
    const { router } = renderApp('/stacks/2');
    const details = await screen.findByRole('region', { name: 'Stack details' });
    expect(router.state.location.pathname).toBe('/stacks/2/environments');
    expect(details).toHaveTextContent('Memory ManagementEnabled');
    expect(details).toHaveTextContent('TenancyDedicated');
    expect(details).toHaveTextContent('Outbound IP Addresses203.0.113.7, 203.0.113.8');
    expect(details).toHaveTextContent('Regioneu-west-1');
    expect(await screen.findByText('$499.00')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Environments' });
    expect(within(table).getByText('production')).toBeInTheDocument();
    expect(within(table).queryByText('staging')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Managed HIDS' })).not.toBeInTheDocument();
  });

  it('shows the HIDS tab only when the stack exposes reports', async () => {
    signIn();
    mockServer({
      ...routes(),
      'GET /api/stacks/2': () => json(200, { ...stacks[1], expose_intrusion_detection_reports: true }),
    });
    renderApp('/stacks/2/hids');
    expect(await screen.findByRole('link', { name: 'Managed HIDS' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'No resources found' })).toBeInTheDocument();
  });

  it('says so on the HIDS tab of a stack that does not expose its reports', async () => {
    signIn();
    mockServer(routes());
    renderApp('/stacks/2/hids');
    expect(
      await screen.findByText('We cannot expose intrusion detection reports for this stack.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Managed HIDS' })).not.toBeInTheDocument();
  });

  it('refuses deprovision to everyone but the Account Owner, with the tooltip', async () => {
    signIn();
    mockServer(routes({ roleType: 'platform_owner' }));
    renderApp('/stacks/2/settings');
    const button = await screen.findByRole('button', { name: 'Request Deprovision' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(
      deniedDescription('You must be an Account Owner to deprovision stacks'),
    );
    await userEvent.setup().click(button);
    expect(screen.queryByRole('link', { name: 'Confirm' })).not.toBeInTheDocument();
  });

  it('lets the owner request a deprovision once environments are gone and the name is typed', async () => {
    signIn();
    mockServer(routes({ environments: [environmentHal({ id: '11', handle: 'staging', stackId: '1' })] }));
    renderApp('/stacks/2/settings');
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Request Deprovision' });
    expect(button).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Stack name' }), 'engines-prod');
    expect(button).toBeEnabled();
    await user.click(button);
    const confirm = screen.getByRole('link', { name: 'Confirm' });
    // The request opens the support form with it filled in.
    expect(confirm.getAttribute('href')).toMatch(/^\/support\?subject=Deprovision\+stack\+engines-prod/);
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
  });

  it('warns while environments remain', async () => {
    signIn();
    mockServer(routes());
    renderApp('/stacks/2/settings');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'All environments on this stack must be deprovisioned before the stack can be (1 environment remains).',
    );
  });

  it('says a shared stack cannot be deprovisioned', async () => {
    signIn();
    mockServer(routes());
    renderApp('/stacks/1/settings');
    expect(await screen.findByText(/Shared stacks cannot be deprovisioned/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request Deprovision' })).not.toBeInTheDocument();
  });
});
