import { requiredText } from '@berth/core';
import { z } from 'zod';

/**
 * The server's role name rule (auth/roles/roles.routes.ts: `requiredText('Name', 120)`), so the form shows
 * the same message before sending; it moves into core with the role resource.
 */
export const roleNameFormSchema = z.object({ name: requiredText('Name', 120) });
