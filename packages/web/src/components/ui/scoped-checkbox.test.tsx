import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { deniedDescription } from '../../../test/denials.ts';
import { ScopedCheckbox } from './scoped-checkbox.tsx';

function Harness({ denial, locked = false }: { denial: string | null; locked?: boolean }) {
  const [checked, setChecked] = useState(true);
  return (
    <>
      <ScopedCheckbox
        id="deployers"
        checked={checked}
        denial={denial}
        locked={locked}
        onChange={() => setChecked(!checked)}
      />
      <label htmlFor="deployers">Deployers</label>
    </>
  );
}

describe('ScopedCheckbox', () => {
  it('stays focusable when denied, describes why, and ignores clicks, label clicks and Space', async () => {
    render(<Harness denial="You are not an owner or role admin." />);
    const box = screen.getByRole('checkbox', { name: 'Deployers' });
    expect(box).not.toBeDisabled();
    expect(box).toHaveAttribute('aria-disabled', 'true');
    expect(box).toHaveAccessibleDescription(deniedDescription('You are not an owner or role admin.'));
    expect(
      screen.getByRole('tooltip', { name: deniedDescription('You are not an owner or role admin.') }),
    ).toBeInTheDocument();

    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(box);
    await user.keyboard(' ');
    await user.click(box);
    await user.click(screen.getByText('Deployers'));
    expect(box).toBeChecked();
  });

  it('locks without a tooltip, and changes once unlocked', async () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <ScopedCheckbox aria-label="Ops" checked={false} denial={null} locked onChange={onChange} />,
    );
    const box = screen.getByRole('checkbox', { name: 'Ops' });
    expect(box).toHaveAttribute('aria-disabled', 'true');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(box);
    expect(onChange).not.toHaveBeenCalled();

    rerender(<ScopedCheckbox aria-label="Ops" checked={false} denial={null} onChange={onChange} />);
    expect(box).not.toHaveAttribute('aria-disabled');
    await user.click(box);
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});
