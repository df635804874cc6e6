import { endpointMessages } from '@berth/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deniedDescription } from '../../../../test/denials.ts';
import { CreateEndpointForm } from './create-endpoint-form.tsx';
import type { CreateEndpointSubmission } from './endpoint-form-values.ts';

const SERVICES = [
  { id: '5', label: 'web' },
  { id: '6', label: 'worker' },
];

function setup({
  certificates = [{ id: '9', label: 'www.example.com (9)' }],
  denial = null as string | null,
} = {}) {
  const onSubmit = vi.fn(async (_submission: CreateEndpointSubmission) => {});
  render(
    <CreateEndpointForm
      services={SERVICES}
      certificates={certificates}
      denial={denial}
      onSubmit={onSubmit}
    />,
  );
  return { onSubmit, user: userEvent.setup() };
}

const save = () => screen.getByRole('button', { name: 'Save Endpoint' });
const query = (role: 'textbox' | 'combobox' | 'checkbox' | 'radio', name: string | RegExp) =>
  screen.queryByRole(role, { name });

describe('CreateEndpointForm field sets (spec 2 §4)', () => {
  it('default domain: placement, allowlist and header only, plus HTTP load balancing and shared', async () => {
    const { user } = setup();
    expect(screen.getByRole('radio', { name: 'HTTP' })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^Default domain/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^External/ })).toBeChecked();
    expect(query('textbox', 'IP Allowlist')).toBeInTheDocument();
    expect(screen.getByLabelText('Header Token')).toHaveAttribute('type', 'password');
    expect(query('textbox', 'Custom Container Port')).toBeInTheDocument();
    expect(query('textbox', 'Domain')).not.toBeInTheDocument();
    expect(query('combobox', 'Certificate')).not.toBeInTheDocument();
    expect(query('combobox', 'Load Balancing Algorithm')).toBeInTheDocument();
    expect(query('checkbox', /Shared endpoint/)).toBeInTheDocument();

    // Load balancing algorithm and shared are for HTTP only.
    await user.click(screen.getByRole('radio', { name: 'gRPC' }));
    expect(query('combobox', 'Load Balancing Algorithm')).not.toBeInTheDocument();
    expect(query('checkbox', /Shared endpoint/)).not.toBeInTheDocument();
  });

  it('managed HTTPS: a domain and the transitional certificate option, a certificate only if transitional', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('radio', { name: /^Managed HTTPS/ }));
    expect(query('textbox', 'Domain')).toBeInTheDocument();
    expect(query('combobox', 'Certificate')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /transitional certificate/ }));
    expect(query('combobox', 'Certificate')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Upload a new certificate' }));
    expect(query('textbox', 'New Certificate')).toBeInTheDocument();
    expect(query('textbox', 'Private Key')).toBeInTheDocument();
  });

  it('custom certificate: a certificate, and the domain only when shared', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('radio', { name: /^Custom certificate/ }));
    expect(query('combobox', 'Certificate')).toBeInTheDocument();
    expect(query('textbox', 'Domain')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /Shared endpoint/ }));
    expect(query('textbox', 'Domain')).toBeInTheDocument();
  });

  it('starts on a new certificate when the environment has none', async () => {
    const { user } = setup({ certificates: [] });
    await user.click(screen.getByRole('radio', { name: /^Custom certificate/ }));
    expect(screen.getByRole('radio', { name: 'Upload a new certificate' })).toBeChecked();
    expect(query('textbox', 'New Certificate')).toBeInTheDocument();
  });
});

describe('CreateEndpointForm messages (spec 2 §5, from core)', () => {
  it('needs a service', async () => {
    const { user, onSubmit } = setup();
    await user.click(save());
    expect(await screen.findByText(endpointMessages.serviceRequired)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks the port, the allowlist and the header token', async () => {
    const { user, onSubmit } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    await user.type(screen.getByRole('textbox', { name: 'Custom Container Port' }), '70000');
    await user.type(screen.getByRole('textbox', { name: 'IP Allowlist' }), '10.0.0.1 300.1.1.1 10.0.0.0/33');
    await user.type(screen.getByLabelText('Header Token'), 'bad token!');
    await user.click(save());
    expect(await screen.findByText('Port must be a number between 1 and 65535')).toBeInTheDocument();
    expect(
      screen.getByText(
        '[300.1.1.1] is not a valid IPv4 address or CIDR, [10.0.0.0/33] is not a valid IPv4 address or CIDR',
      ),
    ).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('allows at most 50 allowlist entries', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    const many = Array.from({ length: 51 }, (_, index) => `10.0.0.${index}`).join('\n');
    await user.click(screen.getByRole('textbox', { name: 'IP Allowlist' }));
    await user.paste(many);
    await user.click(save());
    expect(await screen.findByText('51 is greater than the max IP Allowlist size of 50')).toBeInTheDocument();
  });

  it('rejects header token characters', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    await user.type(screen.getByLabelText('Header Token'), 'bad token!');
    await user.click(save());
    expect(await screen.findByText(endpointMessages.tokenHeaderCharacters)).toBeInTheDocument();
  });

  it('managed HTTPS needs a domain; shared endpoints refuse wildcards', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    await user.click(screen.getByRole('radio', { name: /^Managed HTTPS/ }));
    await user.click(save());
    expect(await screen.findByText(endpointMessages.managedDomainRequired)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Domain' }), '*.example.com');
    await user.click(screen.getByRole('checkbox', { name: /Shared endpoint/ }));
    await user.click(save());
    expect(
      await screen.findByText(
        'Shared endpoints do not support wildcard domains. Please use a specific domain name.',
      ),
    ).toBeInTheDocument();
  });

  it('custom HTTPS needs a certificate and a private key', async () => {
    const { user } = setup({ certificates: [] });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    await user.click(screen.getByRole('radio', { name: /^Custom certificate/ }));
    await user.click(save());
    expect(await screen.findByText('A certificate is required for custom HTTPS')).toBeInTheDocument();
    expect(screen.getByText('A private key is required for custom HTTPS')).toBeInTheDocument();
  });

  it('a shared endpoint with a certificate needs a domain', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    await user.click(screen.getByRole('radio', { name: /^Custom certificate/ }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Certificate' }), '9');
    await user.click(screen.getByRole('checkbox', { name: /Shared endpoint/ }));
    await user.click(save());
    expect(await screen.findByText(endpointMessages.sharedDomainRequired)).toBeInTheDocument();
  });
});

describe('CreateEndpointForm submission (contract §5.9)', () => {
  it('sends a default HTTP endpoint', async () => {
    const { user, onSubmit } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '6');
    await user.type(screen.getByRole('textbox', { name: 'Custom Container Port' }), '8080');
    await user.type(screen.getByRole('textbox', { name: 'IP Allowlist' }), '203.0.113.0/24\n10.0.0.1');
    await user.type(screen.getByLabelText('Header Token'), 'secret-1');
    await user.click(screen.getByRole('radio', { name: /^Internal/ }));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Load Balancing Algorithm' }),
      'weighted_random',
    );
    await user.click(save());
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      serviceId: '6',
      certificate: { kind: 'none' },
      body: {
        type: 'http',
        platform: 'alb',
        acme: false,
        default: true,
        internal: true,
        ip_whitelist: ['203.0.113.0/24', '10.0.0.1'],
        container_port: '8080',
        token_header: 'secret-1',
        load_balancing_algorithm_type: 'weighted_random',
        shared: false,
      },
    });
  });

  it('sends a gRPC managed endpoint on elb, without HTTP-only fields', async () => {
    const { user, onSubmit } = setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    await user.click(screen.getByRole('radio', { name: 'gRPC' }));
    await user.click(screen.getByRole('radio', { name: /^Managed HTTPS/ }));
    await user.type(screen.getByRole('textbox', { name: 'Domain' }), 'api.example.com');
    await user.click(save());
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      serviceId: '5',
      certificate: { kind: 'none' },
      body: {
        type: 'grpc',
        platform: 'elb',
        acme: true,
        default: false,
        internal: false,
        ip_whitelist: [],
        user_domain: 'api.example.com',
      },
    });
  });

  it('hands over a new certificate to upload first', async () => {
    const { user, onSubmit } = setup({ certificates: [] });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    await user.click(screen.getByRole('radio', { name: /^Custom certificate/ }));
    await user.type(screen.getByRole('textbox', { name: 'New Certificate' }), 'CERT');
    await user.type(screen.getByRole('textbox', { name: 'Private Key' }), 'KEY');
    await user.click(save());
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0].certificate).toEqual({
      kind: 'new',
      certificate_body: 'CERT',
      private_key: 'KEY',
    });
  });

  it('shows the server message when creating fails', async () => {
    const { user, onSubmit } = setup();
    onSubmit.mockRejectedValueOnce(
      new Error('You do not have "deploy" permissions for this environment (id:10)'),
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Service' }), '5');
    await user.click(save());
    expect(
      await screen.findByText('You do not have "deploy" permissions for this environment (id:10)'),
    ).toBeInTheDocument();
  });

  it('keeps Save disabled with the scope tooltip without deploy', () => {
    setup({ denial: 'You do not have "deploy" permissions for this environment (id:10)' });
    expect(save()).toHaveAttribute('aria-disabled', 'true');
    expect(save()).toHaveAccessibleDescription(
      deniedDescription('You do not have "deploy" permissions for this environment (id:10)'),
    );
  });
});

describe('CreateEndpointForm monthly cost (issue 41)', () => {
  it('says what the endpoint adds a month, at the shared rate once Shared is ticked', async () => {
    const { user } = setup();
    // spec 2 §9: 0.06 an hour × 730 hours; shared 0.04 × 730.
    expect(screen.getByText(/adds \$43\.80 a month/)).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /Shared endpoint/ }));
    expect(screen.getByText(/adds \$29\.20 a month.*the shared rate/)).toBeInTheDocument();
    // gRPC cannot be shared: the dedicated rate again.
    await user.click(screen.getByRole('radio', { name: 'gRPC' }));
    expect(screen.getByText(/adds \$43\.80 a month/)).toBeInTheDocument();
  });
});
