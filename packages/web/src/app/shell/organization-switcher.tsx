import { truncateLabel } from '@berth/core';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Spinner } from '../../components/ui/spinner.tsx';
import { paths } from '../../lib/paths.ts';
import type { Organization } from '../../resources/organizations/organization.hal.ts';
import { icons } from './icons.tsx';

export interface OrganizationSwitcherProps {
  organizations: readonly Organization[];
  organization: Organization | null;
  stackName: string | null;
  collapsed: boolean;
  switchingTo: string | null;
  onSelect: (organizationId: string) => void;
}

/** spec 3 §2: names the organization and its stack (each cut to 20 characters) and switches organization. */
export function OrganizationSwitcher({
  organizations,
  organization,
  stackName,
  collapsed,
  switchingTo,
  onSelect,
}: OrganizationSwitcherProps) {
  const menuId = useId();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    menuRef.current?.querySelector<HTMLElement>('[role^="menuitem"]')?.focus();
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [open]);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role^="menuitem"]') ?? []);
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'Escape') {
      setOpen(false);
      rootRef.current?.querySelector<HTMLElement>('button')?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      items[(index + step + items.length) % items.length]?.focus();
    }
  };

  const name = organization?.name ?? 'No organization';
  return (
    <div className="org-switcher" ref={rootRef}>
      <button
        type="button"
        className="org-switcher-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Organization: ${name}`}
        title={collapsed ? name : undefined}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="org-avatar" aria-hidden="true">
          {switchingTo ? <Spinner size="sm" decorative /> : name.slice(0, 1).toUpperCase()}
        </span>
        {collapsed ? null : (
          <>
            <span className="org-text">
              <span className="org-name">{truncateLabel(name)}</span>
              {stackName ? <span className="org-stack">{truncateLabel(stackName)}</span> : null}
            </span>
            <span className="org-chevron">{icons.chevronsUpDown}</span>
          </>
        )}
      </button>
      {open ? (
        <div
          className="org-menu"
          role="menu"
          id={menuId}
          aria-label="Organizations"
          ref={menuRef}
          onKeyDown={onMenuKeyDown}
        >
          {organizations.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitemradio"
              aria-checked={item.id === organization?.id}
              className="org-menu-item"
              disabled={switchingTo !== null}
              onClick={() => {
                setOpen(false);
                if (item.id !== organization?.id) onSelect(item.id);
              }}
            >
              <span className="org-menu-check">{item.id === organization?.id ? icons.check : null}</span>
              <span className="org-menu-label">{truncateLabel(item.name)}</span>
            </button>
          ))}
          {organizations.length ? <hr className="org-menu-separator" /> : null}
          <Link
            role="menuitem"
            className="org-menu-item"
            to={paths.organizationsPicker}
            onClick={() => setOpen(false)}
          >
            <span className="org-menu-check" />
            All organizations
          </Link>
          <Link
            role="menuitem"
            className="org-menu-item"
            to={paths.organizationsCreate}
            onClick={() => setOpen(false)}
          >
            <span className="org-menu-check">{icons.plus}</span>
            Create Organization
          </Link>
        </div>
      ) : null}
    </div>
  );
}
