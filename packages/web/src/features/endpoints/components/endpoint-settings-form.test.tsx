import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { vhostResourceFixture } from '../../../../test/vhost-fixtures.ts';
import { fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';
import type { UpdateEndpointBody } from '../api/endpoint-requests.ts';
import { EndpointSettingsForm } from './endpoint-settings-form.tsx';

/** An HTTP endpoint whose server-side header token is set (contract §4.3: the console sees only that). */
const endpoint = fromVhostResource(vhostResourceFixture({ id: '7', token_header: 'set' }));

function setup() {
  const onSave = vi.fn(async (_body: UpdateEndpointBody) => {});
  render(<EndpointSettingsForm endpoint={endpoint} denial={null} onSave={onSave} />);
  return { onSave, user: userEvent.setup() };
}

describe('EndpointSettingsForm header token (contract §4.3: a secret the console never reads back)', () => {
  it('is a masked, empty field, and an untouched field sends no token', async () => {
    const { onSave, user } = setup();
    const token = screen.getByLabelText('Header Token');
    expect(token).toHaveAttribute('type', 'password');
    expect(token).toHaveValue('');
    expect(token).toHaveAttribute('autocomplete', 'new-password');
    await user.type(screen.getByRole('textbox', { name: 'IP Allowlist' }), '10.0.0.0/8');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(onSave).toHaveBeenCalledTimes(1);
    const body = onSave.mock.calls[0]?.[0];
    expect(body).toEqual({
      ip_whitelist: ['10.0.0.0/8'],
      container_port: null,
      load_balancing_algorithm_type: 'round_robin',
      shared: false,
    });
    expect(body).not.toHaveProperty('token_header');
  });

  it('shows the typed token on demand and sends the new one', async () => {
    const { onSave, user } = setup();
    const token = screen.getByLabelText('Header Token');
    await user.type(token, 'new-secret_1');
    const toggle = screen.getByRole('button', { name: 'Show header token' });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(token).toHaveAttribute('type', 'text');
    expect(token).toHaveValue('new-secret_1');
    await user.click(toggle);
    expect(token).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ token_header: 'new-secret_1' });
  });

  it('removes the token only when asked to', async () => {
    const { onSave, user } = setup();
    await user.click(screen.getByRole('checkbox', { name: 'Stop requiring the header token' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(onSave.mock.calls[0]?.[0]).toMatchObject({ token_header: null });
  });
});
