import {
  attachmentNameProblem,
  canSubmitSupportTicket,
  DEFAULT_SUPPORT_PRIORITY,
  SUPPORT_ATTACHMENT_ACCEPT,
  SUPPORT_ATTACHMENT_MAX_BYTES,
  SUPPORT_ATTACHMENTS_MAX,
  SUPPORT_PRIORITIES,
  type SupportTicketInput,
  supportMessages,
  supportTicketSchema,
} from '@berth/core';
import { type ChangeEvent, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Form, SubmitRow, useSchemaForm } from '../../../components/ui/form.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { messageOf } from '../../../lib/error-message.ts';
import './support.css';

export interface UploadedAttachment {
  token: string;
  fileName: string;
}

export interface SupportTicketFormProps {
  /** Filled from the signed-in user, and from the request that opened the form (a prefilled ticket). */
  initial: { email: string; name: string; subject: string; description: string; priority: string };
  upload: (file: File) => Promise<{ token: string }>;
  onSubmit: (input: SupportTicketInput) => Promise<unknown>;
}

const PRIORITY_OPTIONS = SUPPORT_PRIORITIES.map((priority) => ({
  value: priority,
  label: priority[0]?.toUpperCase() + priority.slice(1),
}));

const SENT = 'Your ticket was sent. A copy is on its way to your email address.';

/** spec 3 §8: a refused upload says why when the server did, else the spec's text. */
function uploadFailure(error: unknown): string {
  return isApiError(error) && error.message ? error.message : supportMessages.uploadFailed;
}

/**
 * spec 3 §2 Support: the ticket form (email, name, subject, description, priority, attachments uploaded
 * first, sent by token). Submit stays disabled until the subject and the message are filled (spec 3 §5).
 */
export function SupportTicketForm({ initial, upload, onSubmit }: SupportTicketFormProps) {
  const [attachments, setAttachments] = useState<UploadedAttachment[]>([]);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const priority = (SUPPORT_PRIORITIES as readonly string[]).includes(initial.priority)
    ? initial.priority
    : DEFAULT_SUPPORT_PRIORITY;
  const form = useSchemaForm(supportTicketSchema, {
    defaultValues: { ...initial, priority: priority as SupportTicketInput['priority'], attachments: [] },
    onSubmit: async (values) => {
      await onSubmit({ ...values, attachments: attachments.map((file) => file.token) });
      form.reset({ ...form.getValues(), subject: '', description: '' });
      setAttachments([]);
    },
    failureMessage: (error) => supportMessages.createFailed(messageOf(error)),
    successMessage: () => SENT,
  });
  const subject = form.watch('subject') ?? '';
  const description = form.watch('description') ?? '';
  const { error: descriptionError, ...descriptionField } = form.field('description');

  async function attach(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const files = [...(input.files ?? [])];
    input.value = '';
    setUploadError(null);
    if (attachments.length + files.length > SUPPORT_ATTACHMENTS_MAX) {
      setUploadError(supportMessages.tooManyAttachments);
      return;
    }
    setUploading(true);
    try {
      for (const file of files) {
        // The server checks the content too; these say at once what it would refuse anyway.
        const problem =
          attachmentNameProblem(file.name) ??
          (file.size > SUPPORT_ATTACHMENT_MAX_BYTES ? supportMessages.tooLarge : null);
        if (problem) {
          setUploadError(problem);
          continue;
        }
        try {
          const { token } = await upload(file);
          setAttachments((current) => [...current, { token, fileName: file.name }]);
        } catch (error) {
          setUploadError(uploadFailure(error));
        }
      }
    } finally {
      setUploading(false);
    }
  }

  return (
    <Form form={form} title="Open a ticket" className="form card card-body form-card">
      <TextField label="Email" type="email" autoComplete="email" {...form.field('email')} />
      <TextField label="Name" autoComplete="name" {...form.field('name')} />
      <TextField label="Subject" autoComplete="off" {...form.field('subject')} />
      <FormField label="Description" error={descriptionError}>
        {(control) => (
          <textarea className="input support-description" rows={8} {...control} {...descriptionField} />
        )}
      </FormField>
      <SelectField label="Priority" options={PRIORITY_OPTIONS} {...form.field('priority')} />
      <FormField
        label="Attachments"
        hint={`Up to ${SUPPORT_ATTACHMENTS_MAX} files of at most ${SUPPORT_ATTACHMENT_MAX_BYTES / (1024 * 1024)} MB: PNG, JPEG, GIF, WebP, PDF or text (.txt, .log, .csv, .json).`}
      >
        {(control) => (
          <input
            className="input"
            type="file"
            multiple
            accept={SUPPORT_ATTACHMENT_ACCEPT}
            disabled={uploading || attachments.length >= SUPPORT_ATTACHMENTS_MAX}
            onChange={(event) => void attach(event)}
            {...control}
          />
        )}
      </FormField>
      {uploadError ? <Banner variant="error">{uploadError}</Banner> : null}
      {attachments.length ? (
        <ul className="attachment-list" aria-label="Attached files">
          {attachments.map((file) => (
            <li key={file.token}>
              <span>{file.fileName}</span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${file.fileName}`}
                onClick={() =>
                  setAttachments((current) => current.filter((item) => item.token !== file.token))
                }
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      <SubmitRow disabled={uploading || !canSubmitSupportTicket({ subject, description })}>Submit</SubmitRow>
    </Form>
  );
}
