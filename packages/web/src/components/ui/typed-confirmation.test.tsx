import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deniedDescription } from '../../../test/denials.ts';
import { TypedConfirmation, type TypedConfirmationProps } from './typed-confirmation.tsx';

const DENIAL = 'You do not have "destroy" permissions for this environment (id:10)';

function setup(props: Partial<TypedConfirmationProps> = {}) {
  const onConfirm = vi.fn<() => Promise<unknown>>(async () => {});
  render(
    <TypedConfirmation
      title="Delete Widget"
      description={
        <>
          Type <strong>gizmo</strong> to confirm.
        </>
      }
      expected="gizmo"
      fieldLabel="Type the widget name to confirm"
      denial={null}
      onConfirm={onConfirm}
      {...props}
    />,
  );
  return {
    onConfirm,
    user: userEvent.setup(),
    input: screen.getByRole('textbox', { name: 'Type the widget name to confirm' }),
    button: screen.getByRole('button', { name: 'Delete Widget' }),
  };
}

describe('TypedConfirmation', () => {
  it('is a named region with its heading and explanation', () => {
    setup();
    const region = screen.getByRole('region', { name: 'Delete Widget' });
    expect(region).toContainElement(screen.getByRole('heading', { level: 2, name: 'Delete Widget' }));
    expect(region).toHaveTextContent('Type gizmo to confirm.');
  });

  it('enables the button only once the typed text matches exactly, then confirms', async () => {
    const { user, input, button, onConfirm } = setup();
    expect(button).toBeDisabled();
    await user.type(input, 'Gizmo');
    expect(button).toBeDisabled();
    await user.clear(input);
    await user.type(input, 'gizmo');
    expect(button).toBeEnabled();
    await user.click(button);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('keeps the button aria-disabled with the denial as its tooltip, and the field locked', async () => {
    const { user, input, button, onConfirm } = setup({ denial: DENIAL });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(deniedDescription(DENIAL));
    expect(input).toBeDisabled();
    await user.click(button);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('can leave the field open while denied, and still never confirms', async () => {
    const { user, input, button, onConfirm } = setup({
      as: 'form',
      denial: DENIAL,
      lockFieldWhenDenied: false,
    });
    expect(input).toBeEnabled();
    await user.type(input, 'gizmo{Enter}');
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.click(button);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('shows the failure message as it is, and clears it on the next try', async () => {
    const { user, input, button, onConfirm } = setup();
    onConfirm.mockRejectedValueOnce(new Error('Widget is still in use'));
    await user.type(input, 'gizmo');
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent('Widget is still in use');
    expect(button).toBeEnabled();
    await user.click(button);
    expect(screen.queryByText('Widget is still in use')).not.toBeInTheDocument();
    expect(onConfirm).toHaveBeenCalledTimes(2);
  });

  it('is busy while the action runs', async () => {
    let finish: () => void = () => {};
    const { user, input, button, onConfirm } = setup();
    onConfirm.mockImplementationOnce(() => new Promise<void>((resolve) => (finish = resolve)));
    await user.type(input, 'gizmo');
    await user.click(button);
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    await user.click(button);
    expect(onConfirm).toHaveBeenCalledTimes(1);
    finish();
    await vi.waitFor(() => expect(button).toBeEnabled());
    expect(button).not.toHaveAttribute('aria-busy', 'true');
  });

  it('as a form, submits with Enter only once confirmed', async () => {
    const { user, input, onConfirm } = setup({ as: 'form' });
    expect(screen.getByRole('form', { name: 'Delete Widget' })).toContainElement(input);
    await user.type(input, 'gizm{Enter}');
    expect(onConfirm).not.toHaveBeenCalled();
    await user.type(input, 'o{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('never confirms an empty expected text', () => {
    const { button } = setup({ expected: '' });
    expect(button).toBeDisabled();
  });

  it('uses a custom rule when given one', async () => {
    const { user, input, button } = setup({ matches: (typed) => typed.toLowerCase() === 'gizmo' });
    await user.type(input, 'GIZMO');
    expect(button).toBeEnabled();
  });

  it('shows its notices and disables field and button while blocked by another rule', async () => {
    const { user, input, button, onConfirm } = setup({
      as: 'form',
      blocked: true,
      notices: <p>Still in use</p>,
    });
    expect(screen.getByText('Still in use')).toBeInTheDocument();
    expect(input).toBeDisabled();
    expect(button).toBeDisabled();
    await user.click(button);
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('names the button with the action label when it differs from the title', () => {
    render(
      <TypedConfirmation
        title="Danger Zone"
        actionLabel="Remove Widget"
        expected="gizmo"
        fieldLabel="Widget name"
        denial={null}
        onConfirm={async () => {}}
      />,
    );
    expect(screen.getByRole('region', { name: 'Danger Zone' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove Widget' })).toBeDisabled();
  });
});
