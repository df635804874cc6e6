import { NavLink } from 'react-router';
import './resource-page.css';

export interface TabLink {
  label: string;
  to: string;
}

/** The tabs of a resource page: each tab is its own URL, so a reload or a shared link keeps it. */
export function TabNav({ label, tabs }: { label: string; tabs: readonly TabLink[] }) {
  return (
    <nav className="tab-nav" aria-label={label}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
          {tab.label}
        </NavLink>
      ))}
    </nav>
  );
}
