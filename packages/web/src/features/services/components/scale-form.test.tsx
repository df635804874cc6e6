import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ScaleForm } from './scale-form.tsx';
import { sizeForProfile, sizeOptionsMb } from './scale-options.ts';

const ALL = { m: true, r: true, c: true };
const service = { containerCount: 1, containerMemoryMb: 1024, instanceClass: 'm5' };

function optionTexts(select: HTMLElement) {
  return within(select)
    .getAllByRole('option')
    .map((option) => option.textContent);
}

describe('scale form', () => {
  it('offers the sizes of each profile (spec 2 §9) between its minimum and maximum', () => {
    const gb = (instanceClass: string) => sizeOptionsMb(instanceClass).map((mb) => mb / 1024);
    expect(gb('m5')).toEqual([0.5, 1, 2, 4, 7, 15, 30, 60, 150, 240, 368]);
    expect(gb('m4')).toEqual([0.5, 1, 2, 4, 7, 15, 30, 60, 150, 240]);
    expect(gb('r5')).toEqual([4, 7, 15, 30, 60, 150, 240, 368, 496, 752]);
    expect(gb('c5')).toEqual([2, 4, 7, 15, 30, 60, 150, 240, 368]);
    expect(gb('c4')).toEqual([2, 4, 7, 15, 30]);
    expect(sizeForProfile('r5', 1024)).toBe(4096);
    expect(sizeForProfile('m5', 4096)).toBe(4096);
  });

  it('offers only the profiles the stack allows, and the size options follow the profile', async () => {
    render(
      <ScaleForm
        service={service}
        allowed={{ m: true, r: false, c: true }}
        denial={null}
        onScale={vi.fn()}
      />,
    );
    const profile = screen.getByRole('combobox', { name: 'Container Profile' });
    expect(optionTexts(profile)).toEqual(['General Purpose (M) - m5', 'CPU Optimized (C) - c5']);
    expect(optionTexts(screen.getByRole('combobox', { name: 'Memory Limit' }))[0]).toBe('0.5 GB');
  });

  it("raises the size to the new profile's minimum when the profile changes", async () => {
    render(<ScaleForm service={service} allowed={ALL} denial={null} onScale={vi.fn()} />);
    const user = userEvent.setup();
    const size = screen.getByRole('combobox', { name: 'Memory Limit' });
    expect(size).toHaveValue('1024');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Container Profile' }), 'r5');
    expect(size).toHaveValue('4096');
    expect(optionTexts(size)[0]).toBe('4 GB');
    expect(screen.getByText('CPU Share: 0.5')).toBeInTheDocument();
  });

  it('refuses a container count outside 0 to 32 and saves only when something changed', async () => {
    const onScale = vi.fn(async () => undefined);
    render(<ScaleForm service={service} allowed={ALL} denial={null} onScale={onScale} />);
    const user = userEvent.setup();
    const save = screen.getByRole('button', { name: 'Save Changes' });
    expect(save).toBeDisabled();
    const count = screen.getByRole('spinbutton', { name: 'Number of Containers' });
    await user.clear(count);
    await user.type(count, '33');
    expect(screen.getByRole('alert')).toHaveTextContent('Container count must be between 0 and 32');
    expect(save).toBeDisabled();
    await user.clear(count);
    await user.type(count, '2');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('High Availability: containers run on separate hosts.')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Memory Limit' }), '2048');
    await user.click(save);
    expect(onScale).toHaveBeenCalledWith({ containerCount: 2, containerSizeMb: 2048, instanceProfile: 'm5' });
  });
});

describe('the price of a scale before it is saved (issue 20)', () => {
  it('shows the monthly cost now and after the change', async () => {
    render(<ScaleForm service={service} allowed={ALL} denial={null} onScale={vi.fn()} />);
    // One 1 GB m5 container: 1 × 1 GB × $0.08 × 730 h.
    expect(screen.getByText('Containers: $58.40 a month now.')).toBeInTheDocument();
    const user = userEvent.setup();
    const count = screen.getByRole('spinbutton', { name: 'Number of Containers' });
    await user.clear(count);
    await user.type(count, '3');
    expect(
      screen.getByText('Containers: $58.40 a month now, $175.20 a month after this change.'),
    ).toBeInTheDocument();
  });
});
