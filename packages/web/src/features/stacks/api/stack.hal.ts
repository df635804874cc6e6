import { DEFAULT_SHARED_STACK, type StackKind, stackKind } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

export type { StackKind };

/** contract §4.3 stack. */
export interface StackHal extends HalResource {
  name: string;
  region?: string;
  /** Berth addition: the runtime that runs the stack ('sim' is simulated). */
  runtime?: string;
  default?: boolean;
  public?: boolean;
  self_hosted?: boolean;
  aws_account_id?: string | null;
  outbound_ip_addresses?: string[] | null;
  memory_limits?: boolean;
  intrusion_detection?: boolean;
  expose_intrusion_detection_reports?: boolean;
}

export interface Stack {
  id: string;
  name: string;
  region: string;
  /** Owner organization; null for a shared stack. */
  organizationId: string | null;
  isDefault: boolean;
  isPublic: boolean;
  kind: StackKind;
  runtime: string;
  awsAccountId: string | null;
  outboundIpAddresses: string[];
  memoryLimits: boolean;
  exposeIntrusionDetectionReports: boolean;
}

export function fromStackHal(stack: StackHal): Stack {
  const organizationId = linkId(stack, 'organization');
  const selfHosted = stack.self_hosted === true;
  return {
    id: idOf(stack),
    name: stack.name ?? '',
    region: stack.region ?? '',
    organizationId,
    isDefault: stack.default === true,
    isPublic: stack.public === true,
    kind: stackKind({ selfHosted, organizationId }),
    runtime: stack.runtime ?? '',
    awsAccountId: stack.aws_account_id ?? null,
    outboundIpAddresses: stack.outbound_ip_addresses ?? [],
    memoryLimits: stack.memory_limits === true,
    exposeIntrusionDetectionReports: stack.expose_intrusion_detection_reports === true,
  };
}

const KIND_LABELS: Record<StackKind, string> = {
  shared: 'Shared',
  dedicated: 'Dedicated',
  'self-hosted': 'Self-hosted',
};

/** The tenancy column: the kind, plus "Simulated" when the stack runs on Berth's sim runtime. */
export function tenancyLabel(stack: Pick<Stack, 'kind' | 'runtime'>): string {
  const kind = KIND_LABELS[stack.kind];
  return stack.runtime === 'sim' ? `${kind} (Simulated)` : kind;
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
