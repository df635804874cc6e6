import {
  HIDS_REPORTS_PER_PAGE,
  type IntrusionDetectionReportResource,
  MAX_PAGE_SIZE,
  type VpcPeerResource,
  type VpnTunnelResource,
} from '@berth/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { itemsByNextLink } from '../../../lib/all-pages.ts';
import { apiDownload, apiRequest } from '../../../lib/api-client.ts';
import { downloadBlob } from '../../../lib/download.ts';
import { stackKeys } from '../../../resources/stacks/stack-keys.ts';

/** contract §4.3 vpn_tunnel as the VPN Tunnels tab shows it. */
export interface VpnTunnel {
  id: string;
  handle: string;
  state: string;
  ourGateway: string;
  peerGateway: string;
  ourNetworks: string[];
  peerNetworks: string[];
}

/** contract §4.3 vpc_peer as the VPC Peering tab shows it. */
export interface VpcPeer {
  id: string;
  connectionId: string;
  connectionStatus: string;
  description: string;
  peerAccountId: string;
  peerVpcId: string;
}

export interface HidsReport {
  id: string;
  startsAt: string;
  endsAt: string;
  createdAt: string;
  csvHref: string;
  pdfHref: string;
}

const connectionKeys = {
  tunnels: (stackId: string) => [...stackKeys.detail(stackId), 'vpn-tunnels'] as const,
  peers: (stackId: string) => [...stackKeys.detail(stackId), 'vpc-peers'] as const,
  hids: (stackId: string, page: number) => [...stackKeys.detail(stackId), 'hids', page] as const,
};

/** contract §5.6 GET /stacks/:id/vpn_tunnels, every page, following `_links.next` (contract §1.4). */
export function useVpnTunnels(stackId: string) {
  return useQuery({
    queryKey: connectionKeys.tunnels(stackId),
    queryFn: async ({ signal }) =>
      (
        await itemsByNextLink<VpnTunnelResource>(
          'api',
          `/stacks/${encodeURIComponent(stackId)}/vpn_tunnels?per_page=${MAX_PAGE_SIZE}`,
          'vpn_tunnels',
          signal,
        )
      ).map(
        (tunnel): VpnTunnel => ({
          id: tunnel.id,
          handle: tunnel.handle,
          state: tunnel.state,
          ourGateway: tunnel.our_gateway,
          peerGateway: tunnel.peer_gateway,
          ourNetworks: tunnel.our_networks,
          peerNetworks: tunnel.peer_networks,
        }),
      ),
  });
}

/** contract §5.6 GET /stacks/:id/vpc_peers, every page, following `_links.next` (contract §1.4). */
export function useVpcPeers(stackId: string) {
  return useQuery({
    queryKey: connectionKeys.peers(stackId),
    queryFn: async ({ signal }) =>
      (
        await itemsByNextLink<VpcPeerResource>(
          'api',
          `/stacks/${encodeURIComponent(stackId)}/vpc_peers?per_page=${MAX_PAGE_SIZE}`,
          'vpc_peers',
          signal,
        )
      ).map(
        (peer): VpcPeer => ({
          id: peer.id,
          connectionId: peer.connection_id,
          connectionStatus: peer.connection_status,
          description: peer.description,
          peerAccountId: peer.peer_account_id,
          peerVpcId: peer.peer_vpc_id,
        }),
      ),
  });
}

interface HidsPage {
  _embedded: { intrusion_detection_reports: IntrusionDetectionReportResource[] };
  total_count: number;
  per_page: number;
}

/** contract §5.6 GET /stacks/:id/intrusion_detection_reports, one page of 10 at a time (spec 2 §9). */
export function useHidsReports(stackId: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: connectionKeys.hids(stackId, page),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HidsPage>(
        'api',
        `/stacks/${encodeURIComponent(stackId)}/intrusion_detection_reports?page=${page}&per_page=${HIDS_REPORTS_PER_PAGE}`,
        { signal },
      );
      return {
        total: list.total_count,
        perPage: list.per_page || HIDS_REPORTS_PER_PAGE,
        reports: list._embedded.intrusion_detection_reports.map(
          (report): HidsReport => ({
            id: report.id,
            startsAt: report.starts_at,
            endsAt: report.ends_at,
            createdAt: report.created_at,
            csvHref: report._links.download_csv.href,
            pdfHref: report._links.download_pdf.href,
          }),
        ),
      };
    },
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * contract §7 "Intrusion report download": the report's link, asked with the bearer, answers a short-lived
 * URL; a plain request to that URL is the file.
 */
export async function downloadHidsReport(href: string, fileName: string): Promise<void> {
  const url = (await (await apiDownload('api', href)).text()).trim();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`The report answered ${response.status}`);
  downloadBlob(fileName, await response.blob());
}
