import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ServiceSettingsForm } from './service-settings-form.tsx';

const service = { stopTimeout: 10, forceZeroDowntime: false, naiveHealthCheck: false };

describe('service settings form (spec 2 §5, §8)', () => {
  it('explains why services with endpoints cannot take the zero-downtime options, and does not send them', async () => {
    const onSave = vi.fn(async () => ({}));
    render(<ServiceSettingsForm service={service} hasEndpoints denial={null} onSave={onSave} />);
    expect(
      screen.getByText(
        'Cannot configure zero-downtime or non-endpoint health checks for services with endpoints.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(onSave).toHaveBeenCalledWith({ stop_timeout: 10 });
  });

  it('shows "Failed to save settings" with the server\u2019s reason', async () => {
    const onSave = vi.fn(async () => {
      throw new Error('Stop timeout must be between 0 and 900 seconds');
    });
    render(<ServiceSettingsForm service={service} hasEndpoints={false} denial={null} onSave={onSave} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save Settings' }));
    expect(
      await screen.findByText('Failed to save settings: Stop timeout must be between 0 and 900 seconds'),
    ).toBeInTheDocument();
  });
});
