import { describe, expect, it } from 'vitest';
import { permissionMessages } from '../permissions/permissions.ts';
import {
  createScimConfigurationInput,
  provisioningDenial,
  SCIM_UNIQUE_IDENTIFIER,
  SCIM_VERSION,
  scimConfigurationForm,
  scimConfigurationMessages,
} from './scim-configuration.ts';

describe('provisioning (spec 1 §5, §6, §9)', () => {
  it('is for the Account Owner with a single assigned organization', () => {
    expect(provisioningDenial({ roleTypes: ['owner'] }, 1)).toBeNull();
    expect(provisioningDenial({ roleTypes: ['owner', 'platform_user'] }, 1)).toBeNull();
    expect(provisioningDenial({ roleTypes: ['owner'] }, 2)).toBe(
      scimConfigurationMessages.singleOrganization,
    );
    expect(provisioningDenial({ roleTypes: ['platform_owner'] }, 1)).toBe(permissionMessages.ownerOnly);
    expect(provisioningDenial({ roleTypes: ['platform_user'] }, 1)).toBe(permissionMessages.ownerOnly);
    expect(provisioningDenial({ roleTypes: [] }, 0)).toBe(permissionMessages.ownerOnly);
  });

  it.each([[''], ['   '], [undefined], [null], ['x'.repeat(3000)]])(
    'asks for a default role with the spec’s message (%j)',
    (value) => {
      const result = scimConfigurationForm.safeParse({ default_role_id: value });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('must select Default Role');
    },
  );

  it('reads the create body the console sends, wrapped', () => {
    const parsed = createScimConfigurationInput.parse({
      scim_configuration: { organization_id: 'org', default_role_id: ' role ', unique_identifier: 'email' },
    });
    expect(parsed.scim_configuration.default_role_id).toBe('role');
    expect(
      createScimConfigurationInput.safeParse({
        scim_configuration: {
          organization_id: 'org',
          default_role_id: 'role',
          unique_identifier: 'username',
        },
      }).success,
    ).toBe(false);
  });

  it('serves SCIM 2.0 with the email as the unique identifier', () => {
    expect(SCIM_VERSION).toBe('2.0');
    expect(SCIM_UNIQUE_IDENTIFIER).toBe('email');
  });
});
