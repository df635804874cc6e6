import { z } from 'zod';
import { handleSchema } from '../environments/environment.schema.ts';
import { requiredMessage } from '../identity/identity-rules.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { plainText } from '../text/plain-text.ts';

/** `POST /accounts/:id/apps`: the environment comes from the path; `account_id` in the body is ignored. */
export const createAppSchema = z.object({ handle: handleSchema });
export type CreateAppInput = z.infer<typeof createAppSchema>;

/** `PUT /apps/:id`: rename. */
export const updateAppSchema = z.object({ handle: handleSchema });
export type UpdateAppInput = z.infer<typeof updateAppSchema>;

export function duplicateAppHandleMessage(handle: string): string {
  return `An app with the handle "${handle}" already exists in this environment`;
}

/** `POST /apps/:id/service_definitions`: a process type (Procfile name) and its command. */
export const createServiceDefinitionSchema = z.object({
  process_type: z
    .string({ error: requiredMessage('Process type') })
    .max(MAX_LENGTH.text, { error: tooLongMessage('Process type', MAX_LENGTH.text), abort: true })
    .superRefine(plainText('Process type'))
    .trim()
    .min(1, requiredMessage('Process type')),
  command: z
    .string()
    .max(MAX_LENGTH.bodyString, { error: tooLongMessage('Command', MAX_LENGTH.bodyString), abort: true })
    .nullish()
    .transform((value) => value ?? ''),
});
export type CreateServiceDefinitionInput = z.infer<typeof createServiceDefinitionSchema>;
