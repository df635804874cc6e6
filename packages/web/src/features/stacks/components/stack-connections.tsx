import { hidsMessages, isVpcPeerActive } from '@berth/core';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Banner } from '../../../components/ui/banner.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Skeleton } from '../../../components/ui/query-state.tsx';
import { StaticTable } from '../../../components/ui/static-table.tsx';
import { messageOf } from '../../../lib/error-message.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { to } from '../../../lib/paths.ts';
import type { Stack } from '../../../resources/stacks/stack.hal.ts';
import {
  downloadHidsReport,
  useHidsReports,
  useVpcPeers,
  useVpnTunnels,
} from '../api/use-stack-connections.ts';
import './stack-connections.css';

/** spec 3 §8: the empty text of a list. */
const NO_RESOURCES_FOUND = 'No resources found';

const where = (stack: Stack) =>
  `stack ${stack.name} (id ${stack.id}${stack.region ? `, ${stack.region}` : ''})`;

/** spec 2 §2 and §6: tunnels are set up by support; the ticket is prefilled with what support asks. */
export function vpnTunnelRequest(stack: Stack): string {
  return to.support({
    subject: `VPN tunnel request for stack ${stack.name}`,
    description: `Please set up a VPN tunnel for ${where(stack)}.\n\nOur VPN gateway's public IP address:\nOur networks (CIDR ranges):\nPhase 1 and phase 2 settings we need (algorithms, DH groups, lifetimes):\n`,
  });
}

/** spec 2 §2 and §6: peering is set up by support, as tunnels are. */
export function vpcPeeringRequest(stack: Stack): string {
  return to.support({
    subject: `VPC peering request for stack ${stack.name}`,
    description: `Please set up VPC peering for ${where(stack)}.\n\nOur AWS account ID:\nOur VPC ID:\nOur VPC's CIDR range:\n`,
  });
}

function Tab({
  label,
  request,
  requestLabel,
  children,
}: {
  label: string;
  request: string;
  requestLabel: string;
  children: ReactNode;
}) {
  return (
    <section className="section-stack" aria-label={label}>
      <Banner variant="info">
        {label} are set up and changed by support: send a ticket, prefilled with what support needs.
      </Banner>
      <div>
        <ButtonLink to={request} variant="secondary" size="sm">
          {requestLabel}
        </ButtonLink>
      </div>
      {children}
    </section>
  );
}

const networks = (list: string[]) => (list.length ? list.join(', ') : 'None');

/** spec 2 §2 /stacks/{id}/vpn-tunnels. */
export function VpnTunnelsTab({ stack }: { stack: Stack }) {
  const tunnels = useVpnTunnels(stack.id);
  let body: ReactNode;
  if (tunnels.error) body = <Banner variant="error">Error: {tunnels.error.message}</Banner>;
  else if (!tunnels.data) body = <Skeleton label="Loading VPN tunnels" />;
  else if (tunnels.data.length === 0) body = <EmptyState title={NO_RESOURCES_FOUND} />;
  else
    body = (
      <StaticTable
        caption="VPN Tunnels"
        columns={['Handle', 'State', 'Our gateway', 'Our networks', 'Peer gateway', 'Peer networks']}
      >
        {tunnels.data.map((tunnel) => (
          <tr key={tunnel.id}>
            <td>{tunnel.handle}</td>
            <td>{tunnel.state}</td>
            <td>{tunnel.ourGateway || '-'}</td>
            <td>{networks(tunnel.ourNetworks)}</td>
            <td>{tunnel.peerGateway || '-'}</td>
            <td>{networks(tunnel.peerNetworks)}</td>
          </tr>
        ))}
      </StaticTable>
    );
  return (
    <Tab label="VPN Tunnels" request={vpnTunnelRequest(stack)} requestLabel="Request a VPN Tunnel">
      {body}
    </Tab>
  );
}

/** spec 2 §2 /stacks/{id}/vpc-peering; spec 2 §6: a connection status of active is success, else an error. */
export function VpcPeersTab({ stack }: { stack: Stack }) {
  const peers = useVpcPeers(stack.id);
  let body: ReactNode;
  if (peers.error) body = <Banner variant="error">Error: {peers.error.message}</Banner>;
  else if (!peers.data) body = <Skeleton label="Loading VPC peers" />;
  else if (peers.data.length === 0) body = <EmptyState title={NO_RESOURCES_FOUND} />;
  else
    body = (
      <StaticTable
        caption="VPC Peers"
        columns={['Connection', 'Status', 'Description', 'Peer account', 'Peer VPC']}
      >
        {peers.data.map((peer) => (
          <tr key={peer.id}>
            <td>{peer.connectionId || '-'}</td>
            <td>
              <span
                className={
                  isVpcPeerActive(peer.connectionStatus) ? 'badge badge-success' : 'badge badge-error'
                }
              >
                {peer.connectionStatus}
              </span>
            </td>
            <td>{peer.description || '-'}</td>
            <td>{peer.peerAccountId || '-'}</td>
            <td>{peer.peerVpcId || '-'}</td>
          </tr>
        ))}
      </StaticTable>
    );
  return (
    <Tab label="VPC Peering" request={vpcPeeringRequest(stack)} requestLabel="Request VPC Peering">
      {body}
    </Tab>
  );
}

function positiveInt(value: string | null): number {
  const parsed = Number.parseInt(value ?? '', 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : 1;
}

/**
 * spec 2 §2 Managed HIDS: the stack's reports, 10 a page (`?page=`, as the other paged tabs), each
 * downloadable as CSV or PDF.
 */
export function HidsReportsTab({ stack }: { stack: Stack }) {
  const [params, setParams] = useSearchParams();
  const page = positiveInt(params.get('page'));
  const setPage = (next: number) =>
    setParams((current) => {
      const changed = new URLSearchParams(current);
      changed.set('page', String(next));
      return changed;
    });
  const [failure, setFailure] = useState<string | null>(null);
  const reports = useHidsReports(stack.id, page, stack.exposeIntrusionDetectionReports);
  // spec 2 §8: the tab of a stack that does not expose its reports.
  if (!stack.exposeIntrusionDetectionReports)
    return <Banner variant="warning">{hidsMessages.notExposed}</Banner>;
  if (reports.error) return <Banner variant="error">{hidsMessages.fetchFailed}</Banner>;
  if (!reports.data) return <Skeleton label="Loading Managed HIDS reports" />;
  const { reports: rows, total, perPage } = reports.data;
  if (total === 0) {
    return (
      <EmptyState
        title={NO_RESOURCES_FOUND}
        description="Managed HIDS reports of this stack appear here once they are produced."
      />
    );
  }
  const pages = Math.max(1, Math.ceil(total / perPage));
  const save = (href: string, fileName: string) => {
    setFailure(null);
    downloadHidsReport(href, fileName).catch((error: unknown) => setFailure(messageOf(error)));
  };
  return (
    <section className="section-stack" aria-label="Managed HIDS">
      {failure ? <Banner variant="error">Error: {failure}</Banner> : null}
      <StaticTable
        caption="Managed HIDS reports"
        columns={['From', 'To', 'Made', { label: 'Downloads', hidden: true }]}
      >
        {rows.map((report) => {
          // Every row has the same two buttons: their names say which report's file they save.
          const period = `report of ${formatDateTime(report.startsAt)} to ${formatDateTime(report.endsAt)}`;
          return (
            <tr key={report.id}>
              <td>{formatDateTime(report.startsAt)}</td>
              <td>{formatDateTime(report.endsAt)}</td>
              <td>{formatDateTime(report.createdAt)}</td>
              <td>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`CSV ${period}`}
                  onClick={() => save(report.csvHref, `hids-${report.id}.csv`)}
                >
                  CSV
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`PDF ${period}`}
                  onClick={() => save(report.pdfHref, `hids-${report.id}.pdf`)}
                >
                  PDF
                </Button>
              </td>
            </tr>
          );
        })}
      </StaticTable>
      {pages > 1 ? (
        <div className="page-actions">
          <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button variant="secondary" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </div>
      ) : null}
    </section>
  );
}
