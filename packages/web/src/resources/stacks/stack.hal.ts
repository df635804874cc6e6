import { DEFAULT_SHARED_STACK, type StackKind, type StackResource, stackKind } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

export type { StackKind };

/** The container profile families a stack offers (spec 2 §9: C, M and R). */
export interface AllowedFamilies {
  m: boolean;
  r: boolean;
  c: boolean;
}

/** contract §4.3 stack as the console reads it: the stacks screens, environment creation, the scale form. */
export interface Stack {
  id: string;
  name: string;
  region: string;
  /** Owner organization; null for a shared stack. */
  organizationId: string | null;
  isDefault: boolean;
  isPublic: boolean;
  kind: StackKind;
  /** Berth addition: the runtime that runs the stack ('sim' is simulated). */
  runtime: string;
  awsAccountId: string;
  outboundIpAddresses: string[];
  memoryLimits: boolean;
  exposeIntrusionDetectionReports: boolean;
  allowedFamilies: AllowedFamilies;
  /** spec 2 §6: the autoscaling modes the stack offers. */
  autoscaling: { horizontal: boolean; vertical: boolean };
}

export function fromStackResource(stack: StackResource): Stack {
  const organizationId = linkId(stack, 'organization');
  return {
    id: idOf(stack),
    name: stack.name,
    region: stack.region,
    organizationId,
    isDefault: stack.default,
    isPublic: stack.public,
    kind: stackKind({ selfHosted: stack.self_hosted, organizationId }),
    runtime: stack.runtime,
    awsAccountId: stack.aws_account_id,
    outboundIpAddresses: stack.outbound_ip_addresses,
    memoryLimits: stack.memory_limits,
    exposeIntrusionDetectionReports: stack.expose_intrusion_detection_reports,
    allowedFamilies: {
      m: stack.allow_m_instance_profile,
      r: stack.allow_r_instance_profile,
      c: stack.allow_c_instance_profile,
    },
    autoscaling: { horizontal: stack.horizontal_autoscaling, vertical: stack.vertical_autoscaling },
  };
}

const KIND_LABELS: Record<StackKind, string> = {
  shared: 'Shared',
  dedicated: 'Dedicated',
  'self-hosted': 'Self-hosted',
};

/** Whether the stack runs on Berth's simulator (the `sim` runtime) rather than real machines. */
export function isSimulated(stack: Pick<Stack, 'runtime'> | null | undefined): boolean {
  return stack?.runtime === 'sim';
}

/** The tenancy column: the kind, plus "Simulated" when the stack runs on Berth's sim runtime. */
export function tenancyLabel(stack: Pick<Stack, 'kind' | 'runtime'>): string {
  const kind = KIND_LABELS[stack.kind];
  return isSimulated(stack) ? `${kind} (Simulated)` : kind;
}

/** The stack an environment runs on, among the stacks the console knows (null when it knows neither). */
export function stackOfEnvironment(
  stacks: readonly Stack[],
  environments: readonly { id: string; stackId: string | null }[],
  environmentId: string | null,
): Stack | null {
  const stackId = environments.find((environment) => environment.id === environmentId)?.stackId;
  return stacks.find((stack) => stack.id === stackId) ?? null;
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
