import { formatUsd } from '@berth/core';
import { type ReactNode, useCallback } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { DetailList } from '../../../components/ui/detail-list.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { type TabLink, TabNav } from '../../../components/ui/tabs.tsx';
import { useCosts } from '../../../features/costs/api/use-costs.ts';
import { CreateEnvironmentButton } from '../../../features/environments/components/create-environment-button.tsx';
import { EnvironmentsTable } from '../../../features/environments/components/environments-table.tsx';
import {
  HidsReportsTab,
  VpcPeersTab,
  VpnTunnelsTab,
} from '../../../features/stacks/components/stack-connections.tsx';
import { StackDeprovision } from '../../../features/stacks/components/stack-deprovision.tsx';
import { StackNodesTab } from '../../../features/stacks/components/stack-nodes.tsx';
import { paths, to } from '../../../lib/paths.ts';
import { SimulatedNotice } from '../../../resources/stacks/simulated-notice.tsx';
import { isSimulated, type Stack, tenancyLabel } from '../../../resources/stacks/stack.hal.ts';
import { useStack } from '../../../resources/stacks/use-stack.ts';
import { icons } from '../../shell/icons.tsx';
import { PageNotFound } from '../../shell/page-not-found.tsx';
import { useConsoleContext } from '../../shell/use-console.ts';

/**
 * spec 2 §2: /stacks/{id} with /environments (default), /vpn-tunnels, /vpc-peering, /hids and /settings;
 * issue 39 adds /nodes, the machines the stack runs on.
 */
const TABS = ['environments', 'nodes', 'vpn-tunnels', 'vpc-peering', 'hids', 'settings'] as const;
type StackTab = (typeof TABS)[number];

function isStackTab(value: string): value is StackTab {
  return (TABS as readonly string[]).includes(value);
}

function StackDetailRoute() {
  const { id = '', tab } = useParams();
  const location = useLocation();
  const stack = useStack(id);

  // The environments tab is the default: /stacks/{id} shows it under its own URL.
  if (!tab) return <Navigate replace to={`${to.stack(id, 'environments')}${location.search}`} />;

  return (
    <QueryState
      query={stack}
      loadingLabel="Loading stack"
      errorHeader={<PageHeader title="Stack" />}
      notFoundBack={{ label: 'Stacks', to: paths.stacks }}
    >
      {(data) => <StackPage stack={data} tab={tab} />}
    </QueryState>
  );
}

function StackPage({ stack, tab }: { stack: Stack; tab: string }) {
  const { organization, environments, allStacks } = useConsoleContext();
  const costs = useCosts(organization?.id ?? null, 'stacks');
  const environmentCosts = useCosts(organization?.id ?? null, 'accounts');
  const environmentHref = useCallback((id: string) => to.environment(id), []);
  const onStack = environments.filter((environment) => environment.stackId === stack.id);
  const stackNames = new Map(allStacks.map((item) => [item.id, item.name]));

  // spec 2 §2: the Managed HIDS tab appears only when the stack exposes intrusion detection reports.
  const tabs: TabLink[] = [
    { label: 'Environments', to: to.stack(stack.id, 'environments') },
    { label: 'Nodes', to: to.stack(stack.id, 'nodes') },
    { label: 'VPN Tunnels', to: to.stack(stack.id, 'vpn-tunnels') },
    { label: 'VPC Peering', to: to.stack(stack.id, 'vpc-peering') },
    ...(stack.exposeIntrusionDetectionReports
      ? [{ label: 'Managed HIDS', to: to.stack(stack.id, 'hids') }]
      : []),
    { label: 'Settings', to: to.stack(stack.id, 'settings') },
  ];
  const current = isStackTab(tab) && (tab !== 'hids' || stack.exposeIntrusionDetectionReports) ? tab : null;
  // spec 2 §8 explains a hidden HIDS tab; any other unknown sub-path is Page Not Found.
  if (current === null && tab !== 'hids') return <PageNotFound />;

  let body: ReactNode;
  switch (current) {
    case 'environments':
      body = (
        <EnvironmentsTable
          environments={onStack}
          stackNames={stackNames}
          costs={environmentCosts.data}
          environmentHref={environmentHref}
        />
      );
      break;
    case 'nodes':
      body = <StackNodesTab stack={stack} />;
      break;
    case 'vpn-tunnels':
      body = <VpnTunnelsTab stack={stack} />;
      break;
    case 'vpc-peering':
      body = <VpcPeersTab stack={stack} />;
      break;
    case 'hids':
      body = <HidsReportsTab stack={stack} />;
      break;
    case 'settings':
      body = (
        <StackDeprovision
          stack={stack}
          organizationName={organization?.name ?? ''}
          environmentCount={onStack.length}
        />
      );
      break;
    case null:
      // spec 2 §8: the HIDS tab of a stack that does not expose its reports (the tab says so itself).
      body = <HidsReportsTab stack={stack} />;
      break;
  }

  const cost = costs.data?.get(stack.id) ?? 0;
  return (
    <>
      <PageHeader
        title={stack.name}
        description={`${tenancyLabel(stack)} stack`}
        actions={
          organization ? (
            <CreateEnvironmentButton to={to.createEnvironment(stack.id)} icon={icons.plus} />
          ) : null
        }
      />
      {isSimulated(stack) ? <SimulatedNotice subject="stack" /> : null}
      <DetailList
        label="Stack details"
        items={[
          { label: 'ID', value: <code>{stack.id}</code> },
          { label: 'Memory Management', value: stack.memoryLimits ? 'Enabled' : 'Disabled' },
          {
            label: 'Tenancy',
            value:
              stack.kind === 'self-hosted' && stack.awsAccountId
                ? `${tenancyLabel(stack)} (AWS account ${stack.awsAccountId})`
                : tenancyLabel(stack),
          },
          {
            label: 'Outbound IP Addresses',
            value: stack.outboundIpAddresses.length ? stack.outboundIpAddresses.join(', ') : 'None',
          },
          { label: 'Region', value: stack.region || 'Unknown' },
          { label: 'Est. Monthly Cost', value: costs.data ? formatUsd(cost) : '…' },
        ]}
      />
      <TabNav label="Stack sections" tabs={tabs} />
      {body}
    </>
  );
}

export { StackDetailRoute as Component };
