import { SIZING_POLICY_DEFAULTS, sizingPolicyMessages } from '@berth/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SizingPolicy } from '../../../resources/sizing/sizing.hal.ts';
import { AutoscalingForm } from './autoscaling-form.tsx';
import { CurrentPolicy } from './current-policy.tsx';

const BOTH = { horizontal: true, vertical: true };
const horizontalPolicy: SizingPolicy = {
  id: '7',
  serviceId: '5',
  environmentId: '1',
  updatedAt: '2026-11-27T10:00:00.000Z',
  fields: { ...SIZING_POLICY_DEFAULTS, scaling_enabled: true, autoscaling: 'horizontal', max_containers: 6 },
};

function modeSelect() {
  return screen.getByRole('combobox', { name: 'Autoscaling' });
}

describe('autoscaling form (spec 2 §4, §5)', () => {
  it('offers the modes the stack allows', () => {
    render(
      <AutoscalingForm
        policy={null}
        allowed={{ horizontal: true, vertical: false }}
        denial={null}
        onSave={vi.fn()}
      />,
    );
    const options = within(modeSelect())
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(options).toEqual(['Disabled', 'Horizontal']);
  });

  it('shows the spec messages beside the fields, and the high-availability warning', async () => {
    const user = userEvent.setup();
    render(<AutoscalingForm policy={null} allowed={BOTH} denial={null} onSave={vi.fn()} />);
    await user.selectOptions(modeSelect(), 'horizontal');
    // Horizontal opens the advanced section.
    expect(screen.getByText('Advanced settings').closest('details')).toHaveAttribute('open');
    const min = screen.getByLabelText('Minimum containers');
    await user.clear(min);
    expect(await screen.findByText(sizingPolicyMessages.minContainersRequired)).toBeInTheDocument();
    await user.type(min, '4');
    expect(await screen.findByText(sizingPolicyMessages.minContainersBelowMax)).toBeInTheDocument();
    expect(screen.getByText(sizingPolicyMessages.maxContainersAboveMin)).toBeInTheDocument();
    await user.clear(min);
    await user.type(min, '1');
    expect(await screen.findByText(sizingPolicyMessages.highAvailability)).toBeInTheDocument();
    // Issue 41: thresholds are typed in percent.
    const down = screen.getByLabelText('Scale down CPU threshold (%)');
    expect(down).toHaveValue(10);
    await user.clear(down);
    await user.type(down, '95');
    expect(await screen.findByText(sizingPolicyMessages.minCpuBelowMax)).toBeInTheDocument();
    expect(screen.getByText(sizingPolicyMessages.maxCpuAboveMin)).toBeInTheDocument();
    await user.clear(down);
    await user.type(down, '150');
    expect(
      await screen.findByText('Scale down CPU threshold must be between 0 % and 100 %'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save Autoscaling' })).toBeDisabled();
  });

  it('clamps a number into its range on blur, and puts a blank one back to its default', async () => {
    const user = userEvent.setup();
    render(<AutoscalingForm policy={null} allowed={BOTH} denial={null} onSave={vi.fn()} />);
    await user.selectOptions(modeSelect(), 'horizontal');
    const lookback = screen.getByLabelText('Metric lookback (seconds)');
    await user.clear(lookback);
    await user.type(lookback, '9000');
    await user.tab();
    expect(lookback).toHaveValue(3600);
    await user.clear(lookback);
    await user.type(lookback, '100');
    expect(await screen.findByText(sizingPolicyMessages.lookback)).toBeInTheDocument();
    await user.tab();
    expect(lookback).toHaveValue(131);
    const percentile = screen.getByLabelText('Percentile');
    await user.clear(percentile);
    await user.tab();
    expect(percentile).toHaveValue(99);
  });

  it('puts the container and CPU fields back to their defaults when vertical is chosen, and checks the ratios', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(undefined);
    render(<AutoscalingForm policy={horizontalPolicy} allowed={BOTH} denial={null} onSave={onSave} />);
    expect(modeSelect()).toHaveValue('horizontal');
    await user.selectOptions(modeSelect(), 'vertical');
    const r = screen.getByLabelText('Memory-to-CPU ratio for R');
    await user.clear(r);
    await user.type(r, '1');
    expect(await screen.findByText(sizingPolicyMessages.ratio)).toBeInTheDocument();
    await user.clear(r);
    await user.type(r, '5');
    await user.click(screen.getByRole('button', { name: 'Save Autoscaling' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        scaling_enabled: true,
        autoscaling: 'vertical',
        mem_cpu_ratio_r_threshold: 5,
        // Vertical put the horizontal fields back to the spec's defaults.
        max_containers: 4,
        min_containers: 2,
      }),
    );
  });

  it("stores the thresholds typed in percent as the contract's fractions (issue 41)", async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(undefined);
    render(<AutoscalingForm policy={horizontalPolicy} allowed={BOTH} denial={null} onSave={onSave} />);
    const up = screen.getByLabelText('Scale up CPU threshold (%)');
    expect(up).toHaveValue(90);
    await user.clear(up);
    await user.type(up, '80');
    const down = screen.getByLabelText('Scale down CPU threshold (%)');
    await user.clear(down);
    await user.type(down, '7');
    await user.click(screen.getByRole('button', { name: 'Save Autoscaling' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ max_cpu_threshold: 0.8, min_cpu_threshold: 0.07 }),
    );
  });

  it('turns autoscaling off by saving the policy disabled', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn().mockResolvedValue(undefined);
    render(<AutoscalingForm policy={horizontalPolicy} allowed={BOTH} denial={null} onSave={onSave} />);
    await user.selectOptions(modeSelect(), 'disabled');
    await user.click(screen.getByRole('button', { name: 'Save Autoscaling' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ scaling_enabled: false, autoscaling: 'horizontal' }),
    );
  });

  it('is disabled with the reason for a caller without the Ops scope', () => {
    const denial = 'You do not have "observability" permissions for this environment (id:1)';
    render(<AutoscalingForm policy={null} allowed={BOTH} denial={denial} onSave={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Save Autoscaling' })).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('current policy', () => {
  it('says when there is none, and summarizes the one in force', () => {
    const { unmount } = render(<CurrentPolicy policy={null} />);
    expect(
      screen.getByText('No policy: this service keeps the size and count it is given.'),
    ).toBeInTheDocument();
    unmount();
    render(<CurrentPolicy policy={horizontalPolicy} />);
    const details = screen.getByRole('region', { name: 'Current policy details' });
    expect(within(details).getByText('Horizontal')).toBeInTheDocument();
    expect(within(details).getByText('2 to 6')).toBeInTheDocument();
    expect(within(details).getByText('10 % down, 90 % up')).toBeInTheDocument();
  });
});
