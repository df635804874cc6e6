import type { StackResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { stacks } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type StackRow = typeof stacks.$inferSelect;

export function toStackHal(stack: StackRow, urls: FamilyUrls): StackResource {
  return {
    id: String(stack.id),
    _type: 'stack' as const,
    name: stack.name,
    region: stack.region,
    // Berth addition: which runtime runs the stack, so the console can label a simulated one.
    runtime: stack.runtime,
    default: stack.isDefault,
    public: stack.public,
    self_hosted: stack.selfHosted,
    aws_account_id: stack.awsAccountId,
    internal_domain: stack.internalDomain,
    default_domain: stack.defaultDomain,
    outbound_ip_addresses: stack.outboundIpAddresses,
    memory_limits: stack.memoryLimits,
    cpu_limits: stack.cpuLimits,
    intrusion_detection: stack.intrusionDetection,
    expose_intrusion_detection_reports: stack.exposeIntrusionDetectionReports,
    allow_c_instance_profile: stack.allowCInstanceProfile,
    allow_m_instance_profile: stack.allowMInstanceProfile,
    allow_r_instance_profile: stack.allowRInstanceProfile,
    allow_t_instance_profile: stack.allowTInstanceProfile,
    allow_granular_container_sizes: stack.allowGranularContainerSizes,
    vertical_autoscaling: stack.verticalAutoscaling,
    horizontal_autoscaling: stack.horizontalAutoscaling,
    created_at: iso(stack.createdAt),
    updated_at: iso(stack.updatedAt),
    _links: links({
      self: `${urls.api}/stacks/${stack.id}`,
      organization: stack.organizationId ? `${urls.auth}/organizations/${stack.organizationId}` : null,
      accounts: `${urls.api}/stacks/${stack.id}/accounts`,
    }),
  };
}
