import { canUncheckRole, roleSelectionChange } from '@berth/core';
import { type FormEvent, useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner.tsx';
import { ScopedButton } from '../../../components/ui/permission-button.tsx';
import { ScopedCheckbox } from '../../../components/ui/scoped-checkbox.tsx';
import './members.css';
import { messageOf } from '../../../lib/error-message.ts';

export interface RoleChoice {
  id: string;
  name: string;
  /** Why this role's checkbox is locked (role management, provisioning), or null. */
  lockedReason: string | null;
}

export interface MemberRolesFormProps {
  /** The roles the actor sees (spec 1 §6 hides compliance roles, and owner roles from Deploy Owners). */
  roles: readonly RoleChoice[];
  /** Every role the member holds, listed or not. */
  memberRoleIds: ReadonlySet<string>;
  /** Why Save is unavailable (spec 1 §6), or null. */
  saveDenial: string | null;
  /** Saves the new selection; a rejection's message is shown. */
  onSave: (chosen: ReadonlySet<string>) => Promise<unknown>;
}

/** spec 1 §4 "Role editing": the last remaining role cannot be unchecked. */
export const LAST_ROLE_HINT = 'A member keeps at least one role.';

/**
 * spec 1 §4 Role editing: a checkbox per role; Save is enabled only when the selection changed; the last
 * remaining role cannot be unchecked.
 */
export function MemberRolesForm({ roles, memberRoleIds, saveDenial, onSave }: MemberRolesFormProps) {
  const id = useId();
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(memberRoleIds));
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const { added, removed } = roleSelectionChange(memberRoleIds, chosen);
  const changed = added.length + removed.length > 0;

  const toggle = (roleId: string) => {
    const next = new Set(chosen);
    if (next.has(roleId)) {
      if (!canUncheckRole(next, roleId)) return;
      next.delete(roleId);
    } else next.add(roleId);
    setChosen(next);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!changed || saveDenial) return;
    setFailure(null);
    setSaving(true);
    try {
      await onSave(chosen);
    } catch (error) {
      setFailure(messageOf(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="form" noValidate onSubmit={submit}>
      {failure ? <Banner variant="error">{failure}</Banner> : null}
      <fieldset className="role-checkboxes">
        <legend>Roles</legend>
        {roles.map((role) => {
          const inputId = `${id}-${role.id}`;
          const checked = chosen.has(role.id);
          const lastRole = checked && !canUncheckRole(chosen, role.id);
          const reason = role.lockedReason ?? (lastRole ? LAST_ROLE_HINT : null);
          return (
            <div key={role.id} className="role-checkbox">
              <ScopedCheckbox
                id={inputId}
                placement="right"
                checked={checked}
                denial={reason}
                onChange={() => toggle(role.id)}
              />
              <label htmlFor={inputId}>{role.name}</label>
            </div>
          );
        })}
      </fieldset>
      <div className="member-roles-actions">
        <ScopedButton type="submit" denial={saveDenial} disabled={!changed} loading={saving}>
          Save
        </ScopedButton>
      </div>
    </form>
  );
}
