import { z } from 'zod';
import { requiredMessage } from '../identity/identity-rules.ts';
import { lastUrlSegment } from '../identity/references.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { ROLE_TYPE_LABELS, type RoleType, SCOPES } from './permissions.ts';

export const permissionSchemaMessages = {
  scope: `Scope must be one of: ${SCOPES.join(', ')}`,
  ownerTypeRole: (type: RoleType) =>
    `${ROLE_TYPE_LABELS[type]} roles cannot be given per-environment permissions`,
  roleNotFound: 'Role not found in this organization',
  duplicate: (scope: string) => `This role already has the "${scope}" permission on this environment`,
} as const;

/**
 * `POST /accounts/:id/permissions` (contract §5.6). The console sends a bare role id; older clients sent
 * the role's URL (contract §8.3): both are accepted, keeping the last path segment.
 */
export const createPermissionSchema = z.object({
  role: z
    .string({ error: requiredMessage('Role') })
    .max(MAX_LENGTH.reference, { error: tooLongMessage('Role', MAX_LENGTH.reference), abort: true })
    .trim()
    .transform(lastUrlSegment)
    .pipe(
      z
        .string()
        .max(MAX_LENGTH.reference, { error: tooLongMessage('Role', MAX_LENGTH.reference), abort: true })
        .min(1, requiredMessage('Role')),
    ),
  scope: z.enum(SCOPES, { error: permissionSchemaMessages.scope }),
});
export type CreatePermissionInput = z.infer<typeof createPermissionSchema>;
