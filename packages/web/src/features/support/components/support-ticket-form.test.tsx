import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, type Mock, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client.ts';
import { SupportTicketForm } from './support-ticket-form.tsx';

const initial = { email: 'ann@example.com', name: 'Ann', subject: '', description: '', priority: '' };
const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'screen.png', { type: 'image/png' });

function renderForm(props: { onSubmit?: Mock; upload?: Mock; initial?: typeof initial } = {}) {
  const onSubmit = props.onSubmit ?? vi.fn().mockResolvedValue({});
  const upload = props.upload ?? vi.fn().mockResolvedValue({ token: 'tok-1' });
  render(<SupportTicketForm initial={props.initial ?? initial} upload={upload} onSubmit={onSubmit} />);
  // The file picker's `accept` is not applied, so a file of another type reaches the form's own check.
  return { onSubmit, upload, user: userEvent.setup({ applyAccept: false }) };
}

describe('SupportTicketForm (spec 3 §2, §5, §8)', () => {
  it('keeps Submit disabled until both the subject and the message are filled', async () => {
    const { user } = renderForm();
    const submit = screen.getByRole('button', { name: 'Submit' });
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveValue('ann@example.com');
    expect(screen.getByRole('combobox', { name: 'Priority' })).toHaveValue('normal');
    expect(submit).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Subject' }), 'Help');
    expect(submit).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Description' }), '   ');
    expect(submit).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Please');
    expect(submit).toBeEnabled();
  });

  it('uploads attachments first and sends their tokens with the ticket', async () => {
    const { user, onSubmit, upload } = renderForm({
      initial: { ...initial, subject: 'Prefilled', description: 'From a request', priority: 'urgent' },
    });
    await user.upload(screen.getByLabelText('Attachments'), png());
    expect(upload).toHaveBeenCalledOnce();
    expect(await screen.findByRole('list', { name: 'Attached files' })).toHaveTextContent('screen.png');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      email: 'ann@example.com',
      name: 'Ann',
      subject: 'Prefilled',
      description: 'From a request',
      priority: 'urgent',
      attachments: ['tok-1'],
    });
    expect(
      await screen.findByText('Your ticket was sent. A copy is on its way to your email address.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Attached files' })).not.toBeInTheDocument();
  });

  it("shows the spec's upload failure, or the server's reason when it gave one", async () => {
    const upload = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockRejectedValueOnce(
        new ApiError(422, 'The content of screen.png does not match its type', null, {}),
      );
    const { user } = renderForm({ upload });
    await user.upload(screen.getByLabelText('Attachments'), png());
    expect(await screen.findByText('File upload failed. Please try again.')).toBeInTheDocument();
    await user.upload(screen.getByLabelText('Attachments'), png());
    expect(await screen.findByText('The content of screen.png does not match its type')).toBeInTheDocument();
    // A file of a type support does not take is refused before it is sent.
    await user.upload(screen.getByLabelText('Attachments'), new File(['<html>'], 'page.html'));
    expect(
      await screen.findByText(
        'Attach PNG, JPEG, GIF, WebP or PDF files, or plain text (.txt, .log, .csv, .json)',
      ),
    ).toBeInTheDocument();
    expect(upload).toHaveBeenCalledTimes(2);
  });

  it("shows the spec's failure text with the server's message when the ticket is refused", async () => {
    const onSubmit = vi
      .fn()
      .mockRejectedValue(new ApiError(429, 'Too many support tickets were sent.', null, {}));
    const { user } = renderForm({
      onSubmit,
      initial: { ...initial, subject: 'Help', description: 'Please' },
    });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(
      await screen.findByText(
        'Error! Unable to create the support ticket: Too many support tickets were sent.',
      ),
    ).toBeInTheDocument();
  });
});
