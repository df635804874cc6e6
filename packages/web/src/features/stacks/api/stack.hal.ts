import { DEFAULT_SHARED_STACK } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.3 stack. */
export interface StackHal extends HalResource {
  name: string;
  region?: string;
  default?: boolean;
  public?: boolean;
  self_hosted?: boolean;
  aws_account_id?: string;
}

export type StackKind = 'shared' | 'dedicated' | 'self-hosted';

export interface Stack {
  id: string;
  name: string;
  region: string;
  /** Owner organization; null for a shared stack. */
  organizationId: string | null;
  isDefault: boolean;
  isPublic: boolean;
  kind: StackKind;
}

export function fromStackHal(stack: StackHal): Stack {
  const organizationId = linkId(stack, 'organization');
  return {
    id: idOf(stack),
    name: stack.name ?? '',
    region: stack.region ?? '',
    organizationId,
    isDefault: stack.default === true,
    isPublic: stack.public === true,
    // contract §4.3: self_hosted wins; no organization means shared; otherwise dedicated.
    kind: stack.self_hosted ? 'self-hosted' : organizationId ? 'dedicated' : 'shared',
  };
}

/** Stacks an organization may create environments on: its own, and the public shared ones. */
export function stacksForOrganization(stacks: readonly Stack[], organizationId: string): Stack[] {
  return stacks.filter(
    (stack) => stack.organizationId === organizationId || (!stack.organizationId && stack.isPublic),
  );
}

/** contract §4.3: the default stack, else the shared stack named shared-us-west-1, else the first. */
export function defaultStack(stacks: readonly Stack[]): Stack | null {
  return (
    stacks.find((stack) => stack.isDefault) ??
    stacks.find((stack) => stack.name === DEFAULT_SHARED_STACK.name) ??
    stacks[0] ??
    null
  );
}
