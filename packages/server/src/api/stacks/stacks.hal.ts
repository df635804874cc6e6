import type { StackResource, TunnelAttributes, VpcPeerResource, VpnTunnelResource } from '@berth/core';
import { VPN_TUNNEL_STATES } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { stacks, vpcPeers, vpnTunnels } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';
import { runtimeKind } from '../../runtimes/runtime.ts';

export type StackRow = typeof stacks.$inferSelect;
export type VpnTunnelRow = typeof vpnTunnels.$inferSelect;
export type VpcPeerRow = typeof vpcPeers.$inferSelect;

export function toStackHal(stack: StackRow, urls: FamilyUrls): StackResource {
  return {
    id: String(stack.id),
    _type: 'stack' as const,
    name: stack.name,
    region: stack.region,
    // Berth addition: which runtime runs the stack, so the console can label a simulated one (every
    // Swarm cluster is `swarm`, whichever key it runs under).
    runtime: runtimeKind(stack.runtime),
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

type TunnelState = VpnTunnelResource['state'];
const isTunnelState = (state: string): state is TunnelState =>
  (VPN_TUNNEL_STATES as readonly string[]).includes(state);

export function toVpnTunnelHal(tunnel: VpnTunnelRow, urls: FamilyUrls): VpnTunnelResource {
  return {
    id: String(tunnel.id),
    _type: 'vpn_tunnel' as const,
    handle: tunnel.handle,
    phase_1_alg: tunnel.phase1Alg,
    phase_1_dh_group: tunnel.phase1DhGroup,
    phase_1_lifetime: tunnel.phase1Lifetime,
    phase_2_alg: tunnel.phase2Alg,
    phase_2_dh_group: tunnel.phase2DhGroup,
    phase_2_lifetime: tunnel.phase2Lifetime,
    perfect_forward_secrecy: tunnel.perfectForwardSecrecy,
    auto: tunnel.auto,
    our_gateway: tunnel.ourGateway,
    peer_gateway: tunnel.peerGateway,
    our_networks: tunnel.ourNetworks,
    peer_networks: tunnel.peerNetworks,
    state: isTunnelState(tunnel.state) ? tunnel.state : 'unknown',
    // Absent until the tunnel has reported (contract §4.3: an object or absent).
    ...(tunnel.tunnelAttributes ? { tunnel_attributes: tunnel.tunnelAttributes as TunnelAttributes } : {}),
    created_at: iso(tunnel.createdAt),
    updated_at: iso(tunnel.updatedAt),
    _links: links({ stack: `${urls.api}/stacks/${tunnel.stackId}` }),
  };
}

export function toVpcPeerHal(peer: VpcPeerRow, urls: FamilyUrls): VpcPeerResource {
  return {
    id: String(peer.id),
    _type: 'vpc_peer' as const,
    connection_id: peer.connectionId,
    connection_status: peer.connectionStatus,
    description: peer.description,
    peer_account_id: peer.peerAccountId,
    peer_vpc_id: peer.peerVpcId,
    created_at: iso(peer.createdAt),
    updated_at: iso(peer.updatedAt),
    _links: links({ stack: `${urls.api}/stacks/${peer.stackId}` }),
  };
}
