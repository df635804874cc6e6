import {
  PHONE_BREAKPOINT_PX,
  permissionMessages,
  plainDenial,
  SIDEBAR_COLLAPSE_BREAKPOINT_PX,
  SIDEBAR_WIDTH_PX,
  type Theme,
} from '@berth/core';
import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Tooltip } from '../../components/ui/tooltip.tsx';
import { paths } from '../../lib/paths.ts';
import { usePersistedState } from '../../lib/persisted-state.ts';
import { useWindowWidth } from '../../lib/use-window-width.ts';
import type { Organization } from '../../resources/organizations/organization.hal.ts';
import { BrandMark } from '../brand.tsx';
import { preloadCommandPalette } from './command-palette-host.tsx';
import { icons } from './icons.tsx';
import { HOME_ITEM, type NavItem, RESOURCE_ITEMS, SECURITY_ITEM } from './nav-items.ts';
import { OrganizationSwitcher } from './organization-switcher.tsx';

export interface SidebarProps {
  organizations: readonly Organization[];
  organization: Organization | null;
  stackName: string | null;
  switchingTo: string | null;
  onSelectOrganization: (organizationId: string) => void;
  homeEnabled: boolean;
  /** spec 3 §2: Security & Compliance needs Full Visibility on any environment. */
  fullVisibility: boolean;
  /** contract §3.4: superuser or read-only impersonator. */
  canImpersonate: boolean;
  /** spec 3 §2 "CLI SSO Token (shown only to some users)": Berth shows it where SSO is in use. */
  cliSsoToken?: boolean;
  docsUrl: string | null;
  theme: Theme;
  onToggleTheme: () => void;
  /** spec 3 §2 "A search launcher opens global search": the ⌘K palette; without it, the search page. */
  onOpenSearch?: () => void;
}

/** The palette's shortcut as this keyboard writes it. */
const SEARCH_SHORTCUT =
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform) ? '⌘K' : 'Ctrl K';

/** spec 3 §2: the side navigation's search launcher. */
function SearchLauncher({ onOpenSearch }: { onOpenSearch?: () => void }) {
  const content = (
    <>
      {icons.search}
      <span className="nav-label">Search</span>
      <kbd className="nav-label sidebar-shortcut">{SEARCH_SHORTCUT}</kbd>
    </>
  );
  return (
    <div className="sidebar-search">
      {onOpenSearch ? (
        <button
          type="button"
          className="nav-link sidebar-search-launcher"
          aria-label="Search"
          aria-haspopup="dialog"
          aria-keyshortcuts="Meta+K Control+K"
          onClick={onOpenSearch}
          onPointerEnter={preloadCommandPalette}
          onFocus={preloadCommandPalette}
        >
          {content}
        </button>
      ) : (
        <Link to={paths.search} className="nav-link sidebar-search-launcher" aria-label="Search">
          {content}
        </Link>
      )}
    </div>
  );
}

function navClass({ isActive }: { isActive: boolean }): string {
  return isActive ? 'nav-link nav-link-active' : 'nav-link';
}

/** An entry that cannot be followed: it keeps its place and, focused, explains itself through the tooltip. */
function DisabledNavEntry({ item, reason }: { item: NavItem; reason: string }) {
  return (
    <li>
      <Tooltip content={reason} detail={plainDenial(reason)} placement="right">
        {(trigger) => (
          <a
            role="link"
            aria-disabled="true"
            // Collapsed, the visible label is hidden (the tooltip speaks instead); the name must stay.
            aria-label={item.label}
            tabIndex={0}
            className="nav-link nav-link-disabled"
            {...trigger}
          >
            {icons[item.icon]}
            <span className="nav-label">{item.label}</span>
          </a>
        )}
      </Tooltip>
    </li>
  );
}

function NavEntry({ item }: { item: NavItem }) {
  return (
    <li>
      <NavLink to={item.to} end={item.end} className={navClass}>
        {icons[item.icon]}
        <span className="nav-label">{item.label}</span>
      </NavLink>
    </li>
  );
}

/** The controls a Tab press may land on inside `container`, in document order. */
function tabbables(container: HTMLElement): HTMLElement[] {
  return [
    ...container.querySelectorAll<HTMLElement>(
      'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])',
    ),
  ].filter((element) => element.tabIndex >= 0);
}

/**
 * The collapsed state: persisted under `nav`, and forced to icons on narrow windows (spec 3 §2). Opened
 * on a narrow window, the menu lies over the page as a drawer (the page keeps its width) and closes on
 * navigation, on Escape and on a tap beside it (issue 20). On a phone (issue 41) there is no rail at all:
 * the drawer is opened from the top bar's Menu button, holds the focus while open (Tab cycles inside it)
 * and gives it back to that button when it closes.
 */
function useCollapsed(
  drawer: RefObject<HTMLElement | null>,
  menuButton: RefObject<HTMLButtonElement | null>,
): {
  phone: boolean;
  collapsed: boolean;
  overlay: boolean;
  toggle: () => void;
  close: () => void;
} {
  const width = useWindowWidth();
  const narrow = width <= SIDEBAR_COLLAPSE_BREAKPOINT_PX;
  const phone = width <= PHONE_BREAKPOINT_PX;
  const [nav, setNav] = usePersistedState('nav');
  // On a narrow window the user may open the menu for a moment without changing the saved preference.
  const [openWhileNarrow, setOpenWhileNarrow] = useState(false);
  const { pathname } = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page is the reason to close.
  useEffect(() => setOpenWhileNarrow(false), [pathname]);
  // Closed from inside the phone drawer (Escape, its close button, the backdrop), focus returns to the
  // Menu button; closed by navigation, it is the new page's to place.
  const returnFocus = useRef(false);
  const close = useCallback(() => {
    returnFocus.current = true;
    setOpenWhileNarrow(false);
  }, []);
  useEffect(() => {
    if (!(narrow && openWhileNarrow)) return;
    // Opened on a phone, focus starts on the drawer's Close menu button, beside where the Menu button was.
    if (phone) drawer.current?.querySelector<HTMLElement>('.sidebar-toggle')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
      if (event.key !== 'Tab' || !phone || !drawer.current) return;
      // The phone drawer is modal: Tab from its last control goes to its first, Shift+Tab the other way.
      const inside = tabbables(drawer.current);
      const first = inside[0];
      const last = inside.at(-1);
      const active = document.activeElement;
      const outside = !(active instanceof Node && drawer.current.contains(active));
      if (event.shiftKey && (active === first || outside)) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && (active === last || outside)) {
        event.preventDefault();
        first?.focus();
      }
    };
    // Tabbing out of the drawer would land on the page under it, hidden by the drawer: it closes instead.
    // The backdrop's Close menu button, just before the drawer, counts as part of it.
    const onFocus = (event: FocusEvent) => {
      const target = event.target;
      if (phone || !(target instanceof Element) || drawer.current?.contains(target)) return;
      if (!target.closest('.sidebar-backdrop')) setOpenWhileNarrow(false);
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('focusin', onFocus);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('focusin', onFocus);
    };
  }, [narrow, phone, openWhileNarrow, drawer, close]);
  useEffect(() => {
    if (openWhileNarrow || !returnFocus.current) return;
    returnFocus.current = false;
    if (phone) menuButton.current?.focus();
  }, [openWhileNarrow, phone, menuButton]);
  const collapsed = narrow ? !openWhileNarrow : nav.collapsed;
  const toggle = () => {
    if (!narrow) setNav({ collapsed: !nav.collapsed });
    else if (openWhileNarrow) close();
    else setOpenWhileNarrow(true);
  };
  return { phone, collapsed, overlay: narrow && openWhileNarrow, toggle, close };
}

/**
 * Issue 41: on a phone, the bar above the page in place of the rail: the Menu button that opens the
 * drawer, the brand, and the search launcher (the drawer closes before the palette opens over the page).
 */
function PhoneBar({
  menuButton,
  open,
  onToggle,
  onOpenSearch,
}: {
  menuButton: RefObject<HTMLButtonElement | null>;
  open: boolean;
  onToggle: () => void;
  onOpenSearch?: () => void;
}) {
  return (
    <div className="phone-bar">
      <button
        ref={menuButton}
        type="button"
        className="phone-bar-button"
        aria-expanded={open}
        // Named only while the drawer exists: a closed drawer is not in the page on a phone.
        aria-controls={open ? SIDEBAR_ID : undefined}
        onClick={onToggle}
      >
        {icons.menu}
        <span>Menu</span>
      </button>
      <Link to={paths.root} className="sidebar-brand" aria-label="Berth home">
        <BrandMark withName />
      </Link>
      {onOpenSearch ? (
        <button
          type="button"
          className="phone-bar-button"
          aria-label="Search"
          aria-haspopup="dialog"
          onClick={onOpenSearch}
          onPointerEnter={preloadCommandPalette}
          onFocus={preloadCommandPalette}
        >
          {icons.search}
        </button>
      ) : (
        <Link to={paths.search} className="phone-bar-button" aria-label="Search">
          {icons.search}
        </Link>
      )}
    </div>
  );
}

const SIDEBAR_ID = 'sidebar';

export function Sidebar({
  organizations,
  organization,
  stackName,
  switchingTo,
  onSelectOrganization,
  homeEnabled,
  fullVisibility,
  canImpersonate,
  cliSsoToken = false,
  docsUrl,
  theme,
  onToggleTheme,
  onOpenSearch,
}: SidebarProps) {
  const drawer = useRef<HTMLElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const { phone, collapsed, overlay, toggle, close } = useCollapsed(drawer, menuButton);
  const width = collapsed ? SIDEBAR_WIDTH_PX.collapsed : SIDEBAR_WIDTH_PX.expanded;
  const nextTheme = theme === 'dark' ? 'light' : 'dark';
  // From the phone drawer, the palette opens over the page the drawer covered: the drawer goes first.
  const openSearch =
    onOpenSearch && phone
      ? () => {
          close();
          onOpenSearch();
        }
      : onOpenSearch;

  return (
    <>
      {phone ? (
        <PhoneBar menuButton={menuButton} open={overlay} onToggle={toggle} onOpenSearch={onOpenSearch} />
      ) : null}
      {overlay ? (
        <>
          {/* The page keeps the collapsed menu's width under the drawer, and a tap beside it closes it. */}
          {phone ? null : <div className="sidebar-spacer" style={{ width: SIDEBAR_WIDTH_PX.collapsed }} />}
          <button
            type="button"
            className="sidebar-backdrop"
            aria-label="Close menu"
            // On a phone the drawer's own Close menu button is in the Tab cycle; this one is for taps.
            tabIndex={phone ? -1 : undefined}
            onClick={close}
          />
        </>
      ) : null}
      {phone && !overlay ? null : (
        <aside
          ref={drawer}
          id={SIDEBAR_ID}
          className="sidebar"
          data-collapsed={collapsed}
          data-overlay={overlay || undefined}
          style={{ width }}
          aria-label="Sidebar"
        >
          <div className="sidebar-header">
            <Link to={paths.root} className="sidebar-brand" aria-label="Berth home">
              <BrandMark withName={!collapsed} />
            </Link>
            <button
              type="button"
              className="icon-button sidebar-toggle"
              aria-label={phone ? 'Close menu' : collapsed ? 'Expand sidebar' : 'Collapse sidebar'}
              aria-expanded={!collapsed}
              onClick={toggle}
            >
              {collapsed ? icons.expand : icons.collapse}
            </button>
          </div>

          <OrganizationSwitcher
            organizations={organizations}
            organization={organization}
            stackName={stackName}
            collapsed={collapsed}
            switchingTo={switchingTo}
            onSelect={onSelectOrganization}
          />

          <SearchLauncher onOpenSearch={openSearch} />

          <nav className="sidebar-nav" aria-label="Main">
            <ul>
              {homeEnabled ? <NavEntry item={HOME_ITEM} /> : null}
              {RESOURCE_ITEMS.map((item) => (
                <NavEntry key={item.to} item={item} />
              ))}
              {fullVisibility ? (
                <NavEntry item={SECURITY_ITEM} />
              ) : (
                <DisabledNavEntry item={SECURITY_ITEM} reason={permissionMessages.fullVisibilityAnywhere} />
              )}
            </ul>
          </nav>

          <div className="sidebar-footer">
            <Link to={paths.deploy} className="button button-primary button-md sidebar-deploy">
              {icons.deploy}
              <span className="nav-label">Deploy</span>
            </Link>
            <nav aria-label="Account">
              <ul>
                <NavEntry item={{ label: 'Settings', to: paths.settings, icon: 'settings' }} />
                {canImpersonate ? (
                  <NavEntry item={{ label: 'Impersonate', to: paths.impersonate, icon: 'impersonate' }} />
                ) : null}
                {cliSsoToken ? (
                  <NavEntry item={{ label: 'CLI SSO Token', to: paths.ssoCli, icon: 'terminal' }} />
                ) : null}
                <NavEntry item={{ label: 'Logout', to: paths.logout, icon: 'logout' }} />
              </ul>
            </nav>
            <button
              type="button"
              className="nav-link theme-toggle"
              aria-label={`Switch to ${nextTheme} theme`}
              onClick={onToggleTheme}
            >
              {theme === 'dark' ? icons.sun : icons.moon}
              <span className="nav-label" aria-hidden="true">
                {theme === 'dark' ? 'Light theme' : 'Dark theme'}
              </span>
            </button>
            {collapsed ? null : (
              <ul className="sidebar-links" aria-label="Resources">
                {docsUrl ? (
                  <li>
                    <a href={docsUrl} target="_blank" rel="noreferrer">
                      DOCS
                    </a>
                  </li>
                ) : null}
                <li>
                  <Link to={paths.support}>SUPPORT</Link>
                </li>
                {docsUrl ? (
                  <li>
                    <a href={`${docsUrl}/cli`} target="_blank" rel="noreferrer">
                      INSTALL CLI
                    </a>
                  </li>
                ) : null}
                <li>
                  <Link to={paths.apiReference}>API REFERENCE</Link>
                </li>
              </ul>
            )}
          </div>
        </aside>
      )}
    </>
  );
}
