import { z } from 'zod';
import { requiredText } from '../identity/identity.schema.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';

// Roles and memberships (contract §5.3): the bodies of the roles routes.

/** A role's name: required, at most 120 characters. */
export const roleNameSchema = requiredText('Name', 120);

export const roleSchemaMessages = {
  platformUserOnly: 'Only platform_user roles can be created',
  userUrlRequired: 'user_url must not be empty',
  privileged: 'privileged must be true or false',
} as const;

/**
 * `POST /organizations/:id/roles`. Roles made through the console are always platform users (contract
 * §4.1); owner types come with the organization.
 */
export const createRoleSchema = z.looseObject({
  name: roleNameSchema,
  type: z.literal('platform_user', { error: roleSchemaMessages.platformUserOnly }).optional(),
});
export type CreateRoleInput = z.infer<typeof createRoleSchema>;

/** `PUT /roles/:id`: a new name. */
export const renameRoleSchema = z.looseObject({ name: roleNameSchema });
export type RenameRoleInput = z.infer<typeof renameRoleSchema>;

/** `POST /roles/:id/memberships`: someone already in the organization, by their user URL (contract §1.9). */
export const addMembershipSchema = z.looseObject({
  user_url: z
    .string({ error: roleSchemaMessages.userUrlRequired })
    .max(MAX_LENGTH.reference, { error: tooLongMessage('user_url', MAX_LENGTH.reference), abort: true })
    .min(1, roleSchemaMessages.userUrlRequired),
});
export type AddMembershipInput = z.infer<typeof addMembershipSchema>;

/** `PATCH /memberships/:id`: whether the member is the role's admin. */
export const updateMembershipSchema = z.looseObject({
  privileged: z.boolean({ error: roleSchemaMessages.privileged }),
});
export type UpdateMembershipInput = z.infer<typeof updateMembershipSchema>;
