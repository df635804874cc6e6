import { paths } from '../../lib/paths.ts';
import type { icons } from './icons.tsx';

export interface NavItem {
  label: string;
  to: string;
  icon: keyof typeof icons;
  /** Active on its own path only, not below it (Home, at `/`). */
  end?: boolean;
}

/** spec 3 §2 "Side navigation": the entries, in this order. Home and Security & Compliance are conditional. */
export const HOME_ITEM: NavItem = { label: 'Home', to: paths.root, icon: 'home', end: true };

export const RESOURCE_ITEMS: readonly NavItem[] = [
  { label: 'Stacks', to: paths.stacks, icon: 'stacks' },
  { label: 'Environments', to: paths.environments, icon: 'environments' },
  { label: 'Apps', to: paths.apps, icon: 'apps' },
  { label: 'Databases', to: paths.databases, icon: 'databases' },
  { label: 'Endpoints', to: paths.endpoints, icon: 'endpoints' },
  { label: 'Services', to: paths.services, icon: 'services' },
  { label: 'Sources', to: paths.sources, icon: 'sources' },
  { label: 'Deployments', to: paths.deployments, icon: 'deployments' },
  { label: 'Activity', to: paths.activity, icon: 'activity' },
  // Issue 41: the organization-wide costs page.
  { label: 'Costs', to: paths.costs, icon: 'costs' },
];

export const SECURITY_ITEM: NavItem = {
  label: 'Security & Compliance',
  to: paths.securityCompliance,
  icon: 'security',
};
