import { describe, expect, it } from 'vitest';
import {
  dedicatedStackRequestSchema,
  planOffersDedicatedStacks,
  stackDeprovisionMessages,
  stackDeprovisionRefusal,
  stackKind,
  stackNameSchema,
} from './stack.schema.ts';

describe('stack names (spec 2 §5)', () => {
  it.each(['prod', 'acme-prod-2', 'a'.repeat(26)])('accepts %s', (name) => {
    expect(stackNameSchema.safeParse(name).success).toBe(true);
  });

  it.each([
    ['', 'Stack name must not be empty'],
    ['Prod', 'Stack name may contain only lowercase letters, digits and hyphens'],
    ['acme_prod', 'Stack name may contain only lowercase letters, digits and hyphens'],
    ['acme.prod', 'Stack name may contain only lowercase letters, digits and hyphens'],
    ['a'.repeat(27), 'Stack name must be at most 26 characters'],
  ])('refuses %j with "%s"', (name, message) => {
    expect(stackNameSchema.safeParse(name).error?.issues[0]?.message).toBe(message);
  });
});

describe('dedicated stack request (spec 2 §2)', () => {
  const valid = { name: 'acme-prod', region: 'eu-west-1', acceptTerms: true };

  it('accepts a name, a region and accepted terms', () => {
    expect(dedicatedStackRequestSchema.parse(valid)).toEqual(valid);
  });

  it.each([
    [{ region: 'none' }, 'region', 'must select an AWS region'],
    [{ region: 'mars-north-1' }, 'region', 'must select an AWS region'],
    [{ acceptTerms: false }, 'acceptTerms', 'You must accept the terms to request a dedicated stack'],
    [{ name: 'Acme' }, 'name', 'Stack name may contain only lowercase letters, digits and hyphens'],
  ])('refuses %j', (change, path, message) => {
    const issues = dedicatedStackRequestSchema.safeParse({ ...valid, ...change }).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([[path, message]]);
  });

  it.each([
    ['growth', true],
    ['Scale', true],
    ['production', true],
    ['enterprise', true],
    ['starter', false],
    [null, false],
  ])('plan %s offers dedicated stacks: %s', (plan, offered) => {
    expect(planOffersDedicatedStacks(plan)).toBe(offered);
  });
});

describe('stack kind (contract §4.3)', () => {
  it.each([
    [{ selfHosted: true, organizationId: 'o' }, 'self-hosted'],
    [{ selfHosted: false, organizationId: null }, 'shared'],
    [{ selfHosted: false, organizationId: 'o' }, 'dedicated'],
  ] as const)('%j is %s', (stack, kind) => {
    expect(stackKind(stack)).toBe(kind);
  });
});

describe('stack deprovision request (spec 2 §2)', () => {
  const owner = { roleTypes: ['owner'] as const };
  const request = { kind: 'dedicated' as const, stackName: 'acme', typedName: 'acme', environmentCount: 0 };

  it('lets the Account Owner ask when the name matches and no environment remains', () => {
    expect(stackDeprovisionRefusal(owner, request)).toBeNull();
  });

  it.each([
    [owner, { kind: 'shared' as const }, stackDeprovisionMessages.shared],
    [{ roleTypes: ['platform_owner'] as const }, {}, 'You must be an Account Owner to deprovision stacks'],
    [{ roleTypes: [] }, {}, 'You must be an Account Owner to deprovision stacks'],
    [owner, { environmentCount: 1 }, stackDeprovisionMessages.environmentsRemain],
    [owner, { typedName: 'acm' }, stackDeprovisionMessages.nameMismatch],
  ])('refuses %j with %j', (actor, change, message) => {
    expect(stackDeprovisionRefusal(actor, { ...request, ...change })).toBe(message);
  });
});
