import { z } from 'zod';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

// The stack page's tabs (spec 2 §2 /vpn-tunnels, /vpc-peering, /hids; contract §4.3 and §5.6). Tunnels
// and peers are set up by support on request (spec 2 §6) and recorded on the stack; the console lists them.
// They have no page of their own, so no `self` link (contract §4.3 names `stack` only).

/** contract §4.3 vpn_tunnel: `state` is `up`, `down`, `partial` or `unknown`. */
export const VPN_TUNNEL_STATES = ['up', 'down', 'partial', 'unknown'] as const;

const tunnelConnection = z.strictObject({
  name: z.string(),
  local_address: z.string(),
  remote_address: z.string(),
  state: z.string(),
});
const routedConnection = z.strictObject({
  name: z.string(),
  local_address: z.string(),
  remote_address: z.string(),
  req_id: z.string(),
});
const securityAssociation = z.strictObject({
  id: z.string(),
  local: z.string(),
  remote: z.string(),
  status: z.string(),
  status_time: z.string(),
  linked_routes: z.array(z.string()),
});

/** contract §4.3 tunnel_attributes: each part a map by name, or null where the tunnel reported none. */
export const tunnelAttributes = z.strictObject({
  connections: z.record(z.string(), tunnelConnection).nullable(),
  routed_connections: z.record(z.string(), routedConnection).nullable(),
  security_associations: z.record(z.string(), securityAssociation).nullable(),
});
export type TunnelAttributes = z.infer<typeof tunnelAttributes>;

export const vpnTunnelResource = z
  .strictObject({
    id: halId,
    _type: z.literal('vpn_tunnel'),
    handle: z.string(),
    phase_1_alg: z.string(),
    phase_1_dh_group: z.string(),
    phase_1_lifetime: z.string(),
    phase_2_alg: z.string(),
    phase_2_dh_group: z.string(),
    phase_2_lifetime: z.string(),
    perfect_forward_secrecy: z.string(),
    auto: z.string(),
    our_gateway: z.string(),
    peer_gateway: z.string(),
    our_networks: z.array(z.string()),
    peer_networks: z.array(z.string()),
    state: z.enum(VPN_TUNNEL_STATES),
    tunnel_attributes: tunnelAttributes.optional(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['stack']),
  })
  .meta({ id: 'VpnTunnel' });
export type VpnTunnelResource = z.infer<typeof vpnTunnelResource>;
export const vpnTunnelCollection = halCollection('vpn_tunnels', vpnTunnelResource).meta({
  id: 'VpnTunnelCollection',
});

export const vpcPeerResource = z
  .strictObject({
    id: halId,
    _type: z.literal('vpc_peer'),
    connection_id: z.string(),
    connection_status: z.string(),
    description: z.string(),
    peer_account_id: z.string(),
    peer_vpc_id: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['stack']),
  })
  .meta({ id: 'VpcPeer' });
export type VpcPeerResource = z.infer<typeof vpcPeerResource>;
export const vpcPeerCollection = halCollection('vpc_peers', vpcPeerResource).meta({
  id: 'VpcPeerCollection',
});

/** spec 2 §6: a VPC peer's connection status `active` is success, anything else an error. */
export function isVpcPeerActive(connectionStatus: string): boolean {
  return connectionStatus === 'active';
}

/** contract §4.3 intrusion_detection_report: its files are text endpoints answering a short-lived URL. */
export const intrusionDetectionReportResource = z
  .strictObject({
    id: halId,
    _type: z.literal('intrusion_detection_report'),
    starts_at: isoTimestamp,
    ends_at: isoTimestamp,
    created_at: isoTimestamp,
    _links: halLinks(['download_csv', 'download_pdf']),
  })
  .meta({ id: 'IntrusionDetectionReport' });
export type IntrusionDetectionReportResource = z.infer<typeof intrusionDetectionReportResource>;
export const intrusionDetectionReportCollection = halCollection(
  'intrusion_detection_reports',
  intrusionDetectionReportResource,
).meta({ id: 'IntrusionDetectionReportCollection' });

/** spec 2 §8 and spec 3 §8: the Managed HIDS tab's messages. */
export const hidsMessages = {
  fetchFailed: 'Unable to fetch managed HIDS evidence.',
  notExposed: 'We cannot expose intrusion detection reports for this stack.',
} as const;

/** spec 2 §9: the HIDS reports list pages by 10. */
export const HIDS_REPORTS_PER_PAGE = 10;
