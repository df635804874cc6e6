import { NavLink, Outlet } from 'react-router';
import { paths } from '../../paths.ts';
import { useConsoleContext } from '../../shell/use-console.ts';
import './settings.css';

interface SettingsGroup {
  label: string;
  items: readonly { label: string; to: string }[];
}

/**
 * spec 1 §2 "Settings sidebar". Only entries whose pages exist are listed: Account Settings (Profile,
 * Security, SSH Keys), Single Sign-On, Provisioning, Organization Settings, Plans and the Billing group
 * join this list when their pages are built.
 */
export const SETTINGS_GROUPS: readonly SettingsGroup[] = [
  {
    label: 'Team Settings',
    items: [
      { label: 'Members', to: paths.teamMembers },
      { label: 'Pending Invites', to: paths.teamPendingInvites },
      { label: 'Roles', to: paths.teamRoles },
    ],
  },
];

/** The settings frame: its own navigation beside the page; pages read the console data as elsewhere. */
function SettingsLayout() {
  const data = useConsoleContext();
  return (
    <div className="settings-page">
      <nav className="settings-nav" aria-label="Settings">
        {SETTINGS_GROUPS.map((group) => (
          <div key={group.label} className="settings-nav-group">
            <h2 className="settings-nav-heading" id={`settings-${group.label}`}>
              {group.label}
            </h2>
            <ul aria-labelledby={`settings-${group.label}`}>
              {group.items.map((item) => (
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
        ))}
      </nav>
      <div className="settings-content">
        <Outlet context={data} />
      </div>
    </div>
  );
}

export { SettingsLayout as Component };
