import { useId } from 'react';
import { NavLink, Outlet } from 'react-router';
import { useRoleManagement } from '../../../features/roles/api/use-role-management.ts';
import { paths } from '../../../lib/paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';
import './settings.css';

interface SettingsItem {
  label: string;
  to: string;
  /** Listed only to owners and role admins (spec 1 §6): the page would only say it is not for them. */
  roleManagersOnly?: boolean;
}

interface SettingsGroup {
  label: string;
  items: readonly SettingsItem[];
}

/**
 * spec 1 §2 "Settings sidebar". The Billing group's Billing Admin (a legacy dashboard elsewhere) is Berth's
 * own Add payment information page. Security and SSH Keys ask for
 * the password again when opened without a valid elevated token (spec 1 §6); so does Access Tokens (ours,
 * issue 35), where a token is made.
 */
export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  {
    label: 'Account Settings',
    items: [
      { label: 'Profile', to: paths.settingsProfile },
      { label: 'Security', to: paths.settingsSecurity },
      { label: 'SSH Keys', to: paths.settingsSsh },
      { label: 'Access Tokens', to: paths.settingsTokens },
    ],
  },
  {
    label: 'Team Settings',
    items: [
      { label: 'Members', to: paths.teamMembers },
      { label: 'Pending Invites', to: paths.teamPendingInvites, roleManagersOnly: true },
      { label: 'Roles', to: paths.teamRoles },
      // Listed to everyone: the page says who may set it up (spec 1 §6: the Account Owner).
      { label: 'Single Sign-On', to: paths.teamSso },
      // Listed to everyone: the page says who may set it up (spec 1 §6: the sole-organization Account Owner).
      { label: 'Provisioning', to: paths.teamScim },
      // Listed to everyone: members may read the contacts; only Account Owners change them (spec 1 §6).
      { label: 'Organization Settings', to: paths.teamContacts },
      // Listed to everyone: the page says who may change plans (spec 1 §6: the Account Owner).
      { label: 'Plans', to: paths.plans },
    ],
  },
  {
    label: 'Billing',
    // Listed to everyone: the pages say who may use them (spec 1 §6: Account and Billing Only Owners).
    items: [
      { label: 'Invoices', to: paths.invoices },
      { label: 'Billing Admin', to: paths.billing },
    ],
  },
];

function SettingsNavGroup({ group, managesRoles }: { group: SettingsGroup; managesRoles: boolean }) {
  // Ids from useId: a label may hold spaces, which would split an aria-labelledby reference in two.
  const headingId = useId();
  return (
    <div className="settings-nav-group">
      <h2 className="settings-nav-heading" id={headingId}>
        {group.label}
      </h2>
      <ul aria-labelledby={headingId}>
        {group.items
          .filter((item) => managesRoles || !item.roleManagersOnly)
          .map((item) => (
            <li key={item.to}>
              <NavLink
                to={item.to}
                className={({ isActive }) =>
                  isActive ? 'settings-nav-link settings-nav-link-active' : 'settings-nav-link'
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
      </ul>
    </div>
  );
}

/** The settings frame: its own navigation beside the page; pages read the console data as elsewhere. */
function SettingsLayout() {
  const data = useConsoleContext();
  const management = useRoleManagement(data.organization?.id ?? null, data.actor, data.user?.id ?? '');
  // Listed until known otherwise, so an owner's entry does not flicker in.
  const managesRoles = management.isPending || management.error !== null || management.managesAnyRole;
  return (
    <div className="settings-page">
      <nav className="settings-nav" aria-label="Settings">
        {SETTINGS_GROUPS.map((group) => (
          <SettingsNavGroup key={group.label} group={group} managesRoles={managesRoles} />
        ))}
      </nav>
      <div className="settings-content">
        <Outlet context={data} />
      </div>
    </div>
  );
}

export { SettingsLayout as Component };
